"""Is the scheduler alive? A file it touches, read without Django.

The `cron` container's health check runs every minute; starting Django costs about 2.5 s of CPU
(the apps import scikit-learn), so `python -m operations.liveness cron` checks the file's age
with nothing but the standard library. The runner touches the file each minute and, while a job
runs, every half minute, so a file older than MAX_AGE_SECONDS means the loop is stuck or gone.

The folder is HEARTBEAT_DIR (the image sets /dev/shm, writable even on a read-only root), else
the system's temporary folder.
"""

import contextlib
import os
import sys
import tempfile
import time
from pathlib import Path

MAX_AGE_SECONDS = 180


def heartbeat_file(process: str) -> Path:
    folder = os.environ.get("HEARTBEAT_DIR") or tempfile.gettempdir()
    return Path(folder) / f"readinglist-{process}.alive"


def beat(process: str) -> None:
    """Say `process` is alive; a folder it cannot write to is reported by the check, not here
    (the scheduler must keep running its jobs)."""
    with contextlib.suppress(OSError):
        heartbeat_file(process).touch()


def problem(process: str, now: float | None = None) -> str | None:
    """Why `process` looks dead, or None."""
    path = heartbeat_file(process)
    try:
        age = (time.time() if now is None else now) - path.stat().st_mtime
    except OSError:
        return f"{process}: no heartbeat at {path} (not started yet, or HEARTBEAT_DIR differs)"
    if age > MAX_AGE_SECONDS:
        return f"{process}: last heartbeat {age:.0f} s ago at {path} (stuck or stopped)"
    return None


def main(argv: list[str]) -> int:
    process = argv[0] if argv else "cron"
    if found := problem(process):
        print(found, file=sys.stderr)
        return 1
    print(f"{process}: alive")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
