"""CPU time of the server under test, read from /proc (Linux).

Requests per second move with whatever else the machine runs; the CPU the server's processes
spend per request moves much less, and it says where a request's cost is. The load test reads it
around each capacity probe.
"""

import os
from pathlib import Path

PROC = Path("/proc")


def _stat_fields(stat: str) -> list[str]:
    # The command name is in parentheses and may hold spaces: the fields start after the last ")".
    return stat.rsplit(")", 1)[1].split()


def _cpu_and_parent(pid_dir: Path) -> tuple[float, int] | None:
    """(user + system CPU seconds, parent pid) of one process, or None if it is gone."""
    try:
        fields = _stat_fields((pid_dir / "stat").read_text())
    except (OSError, IndexError):
        return None
    ticks = os.sysconf("SC_CLK_TCK")
    # After the name: state, ppid, ..., utime and stime (fields 14 and 15 of proc(5)).
    return (int(fields[11]) + int(fields[12])) / ticks, int(fields[1])


def server_cpu_seconds(pid: int, proc: Path = PROC) -> float | None:
    """CPU seconds used so far by process `pid` and its children (a gunicorn arbiter and its
    workers); None where /proc cannot tell (not Linux, or `pid` is gone)."""
    own = _cpu_and_parent(proc / str(pid))
    if own is None:
        return None
    total = own[0]
    for entry in proc.iterdir():
        if entry.name.isdigit() and entry.name != str(pid):
            found = _cpu_and_parent(entry)
            if found is not None and found[1] == pid:
                total += found[0]
    return total
