import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from datetime import UTC, datetime, timedelta
from typing import Any, TextIO

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from operations import heartbeats, liveness
from readinglist.schedule import SCHEDULE, Job, crontab, job_named

MINUTE = timedelta(minutes=1)
# A job that overran (check_links on a slow day) delays the next look at the clock; minutes
# missed meanwhile are caught up, but after a day-long outage a restart starts afresh.
LONGEST_CATCH_UP = timedelta(hours=2)
# How often the runner touches its liveness file while it waits for a job to finish.
BEAT_SECONDS = 30
# The end of a failed job's error output, kept in its heartbeat for the admin.
ERROR_LINES = 20


def jobs_due_between(after: datetime, until: datetime) -> list[Job]:
    """The jobs due in any minute after `after`, up to and including `until`, each once."""
    due: list[Job] = []
    moment = after + MINUTE
    while moment <= until:
        due += [job for job in SCHEDULE if job.is_due(moment) and job not in due]
        moment += MINUTE
    return due


def this_minute() -> datetime:
    return datetime.now(UTC).replace(second=0, microsecond=0)


class Command(BaseCommand):
    help = (
        "Run the periodic jobs of readinglist/schedule.py when they are due (the compose cron "
        "service), or print them as crontab lines with --crontab."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--crontab", action="store_true", help="Print the schedule as crontab lines and exit."
        )
        parser.add_argument(
            "--at",
            metavar="YYYY-MM-DDTHH:MM",
            help="Run the jobs due at this UTC minute once, then exit.",
        )
        parser.add_argument(
            "--job",
            metavar="COMMAND",
            help="Run this scheduled job now, recording its heartbeat (the crontab lines' way).",
        )

    def handle(
        self,
        *args: Any,
        crontab: bool = False,
        at: str | None = None,
        job: str | None = None,
        **options: Any,
    ) -> None:
        if crontab:
            self.stdout.write(_crontab_text())
            return
        if at is not None or job is not None:
            failed = self.run_jobs(_one_job(job) if job else _due_at(_parse_minute(str(at))))
            if failed:
                raise CommandError(f"Failed: {', '.join(failed)}.")
            return
        self.stdout.write("Running the schedule (readinglist/schedule.py), times in UTC.")
        heartbeats.know_schedule()
        last = this_minute()
        while True:
            liveness.beat("cron")
            time.sleep(60 - datetime.now(UTC).second + 0.5)
            now = this_minute()
            self.run_jobs(jobs_due_between(max(last, now - LONGEST_CATCH_UP), now))
            last = now

    def run_jobs(self, jobs: list[Job]) -> list[str]:
        """Each job in a process of its own, so one that fails or leaks leaves the rest alone;
        each run's start, success or failure goes into the job's heartbeat."""
        failed: list[str] = []
        for job in jobs:
            self.stdout.write(f"Starting {job.command} ({job.cadence}).")
            heartbeats.started(job.command)
            status, error_tail = run_job(job_command(job), lambda: liveness.beat("cron"))
            if status:
                failed.append(job.command)
                self.stderr.write(f"{job.command} exited with status {status}.")
                heartbeats.failed(job.command, f"exited with status {status}\n{error_tail}")
            else:
                heartbeats.succeeded(job.command)
        return failed


def job_command(job: Job) -> list[str]:
    return [sys.executable, str(settings.BASE_DIR / "manage.py"), job.command, *job.args]


def run_job(command: list[str], beat: Callable[[], None]) -> tuple[int, str]:
    """Run `command`, passing its error output on as it comes and keeping its end; call `beat`
    every BEAT_SECONDS meanwhile, so a job that runs for an hour is not a dead scheduler."""
    tail: deque[str] = deque(maxlen=ERROR_LINES)
    with subprocess.Popen(command, stderr=subprocess.PIPE, text=True, errors="replace") as job:
        assert job.stderr is not None
        reader = threading.Thread(target=_tee, args=(job.stderr, sys.stderr, tail), daemon=True)
        reader.start()
        while True:
            try:
                status = job.wait(timeout=BEAT_SECONDS)
                break
            except subprocess.TimeoutExpired:
                beat()
        reader.join()
    return status, "".join(tail)


def _tee(lines: Iterable[str], out: TextIO, tail: deque[str]) -> None:
    for line in lines:
        out.write(line)
        out.flush()
        tail.append(line)


def _due_at(moment: datetime) -> list[Job]:
    return jobs_due_between(moment - MINUTE, moment)


def _one_job(command: str) -> list[Job]:
    if (job := job_named(command)) is None:
        names = ", ".join(job.command for job in SCHEDULE)
        raise CommandError(f"{command!r} is not a scheduled job; the schedule has: {names}.")
    return [job]


def _crontab_text() -> str:
    return "# readinglist's periodic jobs (readinglist/schedule.py), times in UTC\n" + crontab()


def _parse_minute(text: str) -> datetime:
    try:
        moment = datetime.fromisoformat(text)
    except ValueError as exc:
        raise CommandError(f"--at wants a time such as 2026-01-05T06:30, not {text!r}.") from exc
    return (
        moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
    ).replace(second=0, microsecond=0)
