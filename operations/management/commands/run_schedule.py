import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from readinglist.schedule import SCHEDULE, Job, crontab

MINUTE = timedelta(minutes=1)
# A job that overran (check_links on a slow day) delays the next look at the clock; minutes
# missed meanwhile are caught up, but after a day-long outage a restart starts afresh.
LONGEST_CATCH_UP = timedelta(hours=2)


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

    def handle(
        self, *args: Any, crontab: bool = False, at: str | None = None, **options: Any
    ) -> None:
        if crontab:
            self.stdout.write(_crontab_text())
            return
        if at is not None:
            moment = _parse_minute(at)
            failed = self.run_jobs(jobs_due_between(moment - MINUTE, moment))
            if failed:
                raise CommandError(f"Failed: {', '.join(failed)}.")
            return
        self.stdout.write("Running the schedule (readinglist/schedule.py), times in UTC.")
        last = this_minute()
        while True:
            time.sleep(60 - datetime.now(UTC).second + 0.5)
            now = this_minute()
            self.run_jobs(jobs_due_between(max(last, now - LONGEST_CATCH_UP), now))
            last = now

    def run_jobs(self, jobs: list[Job]) -> list[str]:
        """Each job in a process of its own, so one that fails or leaks leaves the rest alone."""
        failed: list[str] = []
        for job in jobs:
            self.stdout.write(f"Starting {job.command} ({job.cadence}).")
            command = [sys.executable, str(settings.BASE_DIR / "manage.py"), job.command]
            result = subprocess.run([*command, *job.args], check=False)
            if result.returncode:
                failed.append(job.command)
                self.stderr.write(f"{job.command} exited with status {result.returncode}.")
        return failed


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
