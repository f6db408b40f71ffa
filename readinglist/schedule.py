"""Every periodic job, declared once: the command, when it runs and why.

The compose `cron` service runs them (`docker-entrypoint.sh cron`, i.e. `manage.py
run_schedule`), `manage.py run_schedule --crontab` prints the same jobs as crontab lines for a
host without compose, and docs/operations.md quotes those lines. A management command whose class
says `periodic = True` must appear here (tests/production/test_schedule.py checks both ways), so
a new periodic command cannot be forgotten by the scheduler.

Times are UTC. Jobs are spread over the hour so two heavy ones never start together.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta


@dataclass(frozen=True)
class Job:
    command: str
    why: str
    minute: int
    # None: every hour (or every day of the week).
    hour: int | None = None
    weekday: int | None = None  # 0 is Monday, as datetime.weekday() counts
    args: tuple[str, ...] = ()

    def is_due(self, moment: datetime) -> bool:
        return (
            moment.minute == self.minute
            and (self.hour is None or moment.hour == self.hour)
            and (self.weekday is None or moment.weekday() == self.weekday)
        )

    @property
    def cadence(self) -> str:
        if self.hour is None:
            return f"hourly at :{self.minute:02d}"
        at = f"{self.hour:02d}:{self.minute:02d} UTC"
        if self.weekday is None:
            return f"daily at {at}"
        return f"weekly, {WEEKDAYS[self.weekday]} at {at}"

    @property
    def period(self) -> timedelta:
        """The time between two runs."""
        if self.hour is None:
            return timedelta(hours=1)
        return timedelta(days=1 if self.weekday is None else 7)

    @property
    def late_after(self) -> timedelta:
        """How long after its last success the job counts as late: one missed run may be a
        restart or a slow day, two in a row mean nobody runs it (the probes say which)."""
        return 2 * self.period

    @property
    def crontab(self) -> str:
        """The job as one crontab line, run from the project folder (/app in the image).
        Through the runner, which records the job's heartbeat (its start, success or failure)
        the probes and the admin read."""
        hour = "*" if self.hour is None else str(self.hour)
        # cron counts Sunday as 0, datetime as 6.
        weekday = "*" if self.weekday is None else str((self.weekday + 1) % 7)
        command = f"python manage.py run_schedule --job {self.command}"
        return f"{self.minute} {hour} * * {weekday}  cd /app && {command}"


WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")

SCHEDULE: tuple[Job, ...] = (
    Job(
        "send_digests",
        "a reader's digest is due from DIGEST_SEND_HOUR in their own time zone, so every hour "
        "is someone's morning; idempotent per reader and period",
        minute=0,
    ),
    Job(
        "send_session_reminders",
        "reminders go out TEAMS_REMINDER_DAYS before a session; hourly keeps that close to the "
        "session's own time, and each session is reminded about once",
        minute=5,
    ),
    Job(
        "purge_deleted_notes",
        "writes purge deleted notes too, but a quiet site would keep them; hourly bounds how "
        "long a deleted private note stays in the database",
        minute=10,
    ),
    Job(
        "verify_team_domains",
        "a team's email domain waits for its DNS TXT record; hourly lets an owner who just "
        "published the record see the domain proved within the hour",
        minute=25,
    ),
    Job(
        "send_notification_mail",
        "replies and mentions: a reader's daily digest is due from DIGEST_SEND_HOUR in their "
        "own time zone, and what a burst held back from mail at once goes out within the hour; "
        "each notification is mailed once",
        minute=35,
    ),
    Job(
        "notify_maintainers",
        "the opted-in maintainers' daily email of new proposals, before a European working day",
        minute=30,
        hour=6,
    ),
    Job(
        "collect_candidates",
        "the curator's inbox: new arXiv work since the last successful run, releases of "
        "catalogued repositories and configured feeds, before maintainers start their day; "
        "arXiv asks for at most one request every three seconds, so once a day is polite",
        minute=40,
        hour=5,
        args=("--no-progress",),
    ),
    Job(
        "compute_related",
        "catalog changes recompute related sources through the worker; the daily run adds the "
        "co-reading readers created since",
        minute=15,
        hour=3,
    ),
    Job(
        "prune_db_task_results",
        "finished background tasks stay in their table for the admin; keep two weeks of them",
        minute=45,
        hour=3,
        args=("--min-age-days", "14"),
    ),
    Job(
        "clearsessions",
        "sessions live in the database (cached_db): an expired one is never read again but "
        "stays in its table until Django's clearsessions deletes it; daily, at a quiet hour, "
        "keeps the table to the sessions that can still sign someone in",
        minute=50,
        hour=2,
    ),
    Job(
        "check_links",
        "link health: a dead link is reported after LINKCHECK_WARN_AFTER_DAYS of failures, so "
        "weekly is enough, and it is gentle on the sites it visits",
        minute=20,
        hour=4,
        weekday=6,
        args=("--no-progress",),
    ),
)


def due_jobs(moment: datetime) -> list[Job]:
    return [job for job in SCHEDULE if job.is_due(moment)]


def crontab() -> str:
    return "\n".join(job.crontab for job in SCHEDULE)


def job_named(command: str) -> Job | None:
    return next((job for job in SCHEDULE if job.command == command), None)
