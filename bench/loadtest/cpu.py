"""CPU time of the server under test, of the services it talks to, and of the whole machine.

Requests per second move with whatever else the machine runs; the CPU the server's processes
spend per request moves much less, and it says where a request's cost is. On a machine where
the load generator, PostgreSQL and Redis share the cores with the server, a page's capacity is
bounded by the CPU all of them spend on it, so the load test reads all three around each
capacity probe.
"""

import psutil

# The processes a request's database and cache work runs in, by the names their servers give
# them (PostgreSQL's backends, checkpointer and WAL writer are all "postgres").
SERVICE_NAMES = ("postgres", "redis-server")


def _spent(process: psutil.Process) -> float | None:
    try:
        times = process.cpu_times()
    except psutil.Error:  # a process that exited meanwhile
        return None
    return times.user + times.system


def server_cpu_seconds(pid: int) -> float | None:
    """CPU seconds (user and system) used so far by process `pid` and its children (a gunicorn
    arbiter and its workers); None when the process is gone or cannot be read."""
    try:
        server = psutil.Process(pid)
        processes = [server, *server.children()]
    except psutil.Error:
        return None
    return sum(spent for process in processes if (spent := _spent(process)) is not None)


def services_cpu_seconds(names: tuple[str, ...] = SERVICE_NAMES) -> float | None:
    """CPU seconds used so far by this machine's PostgreSQL and Redis processes (every process
    whose name starts with one of `names`); None when none can be read."""
    found = [
        spent
        for process in psutil.process_iter(["name"])
        if (process.info["name"] or "").startswith(names) and (spent := _spent(process)) is not None
    ]
    return sum(found) if found else None


def machine_cpu_seconds() -> float:
    """CPU seconds every core of the machine has spent so far, in any process or the kernel."""
    times = psutil.cpu_times()
    return sum(
        getattr(times, part, 0.0) for part in ("user", "nice", "system", "irq", "softirq", "steal")
    )
