"""CPU time of the server under test.

Requests per second move with whatever else the machine runs; the CPU the server's processes
spend per request moves much less, and it says where a request's cost is. The load test reads it
around each capacity probe.
"""

import psutil


def server_cpu_seconds(pid: int) -> float | None:
    """CPU seconds (user and system) used so far by process `pid` and its children (a gunicorn
    arbiter and its workers); None when the process is gone or cannot be read."""
    try:
        server = psutil.Process(pid)
        processes = [server, *server.children()]
    except psutil.Error:
        return None
    total = 0.0
    for process in processes:
        try:
            times = process.cpu_times()
        except psutil.Error:  # a worker that exited meanwhile
            continue
        total += times.user + times.system
    return total
