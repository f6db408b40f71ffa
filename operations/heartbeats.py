"""Each scheduled job's heartbeat: written by the schedule runner around every run, read by the
readiness probe and the admin, so a job that stops running is noticed.

A job is late when its last success (or, before its first one, the moment the runner first knew
it) is older than its `late_after`, twice its period. A job the runner never knew is not judged:
a development machine runs no scheduler, and its probe must not say every job is late.
"""

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from django.db import DatabaseError, close_old_connections, connection
from django.utils import timezone

from readinglist.health import Report
from readinglist.schedule import SCHEDULE, Job, job_named

from .models import JobHeartbeat

logger = logging.getLogger(__name__)
ERROR_CHARS = 2000


def _fresh_connection() -> None:
    """A long-running runner's connection may have gone stale (a database restart): drop it as
    a request's end would. Never inside a transaction, which only a caller (a test) opens."""
    if not connection.in_atomic_block:
        close_old_connections()


def _write(name: str, **fields: object) -> None:
    """Record a heartbeat; a database that does not answer loses it with a warning (the runner
    must go on running the other jobs), and the next run writes the next one."""
    _fresh_connection()
    try:
        JobHeartbeat.objects.update_or_create(name=name, defaults=fields)
    except DatabaseError as error:
        logger.warning("Could not record %s's heartbeat: %s", name, error)


def know_schedule() -> None:
    """Start watching every scheduled job: called when the runner starts."""
    for job in SCHEDULE:
        _write_known(job.command)


def _write_known(name: str) -> None:
    _fresh_connection()
    try:
        JobHeartbeat.objects.get_or_create(name=name)
    except DatabaseError as error:
        logger.warning("Could not record %s's heartbeat: %s", name, error)


def started(name: str) -> None:
    _write(name, last_started=timezone.now())


def succeeded(name: str) -> None:
    _write(name, last_succeeded=timezone.now())


def failed(name: str, error: str) -> None:
    _write(name, last_failed=timezone.now(), last_error=error[-ERROR_CHARS:])


@dataclass(frozen=True)
class JobAge:
    name: str
    cadence: str
    late_after: timedelta
    # Since the last success, or since the runner first knew the job when it never succeeded.
    age: timedelta
    succeeded_once: bool

    @property
    def late(self) -> bool:
        return self.age > self.late_after

    def as_json(self) -> dict[str, object]:
        return {
            "cadence": self.cadence,
            "age_seconds": int(self.age.total_seconds()),
            "late_after_seconds": int(self.late_after.total_seconds()),
            "late": self.late,
            "succeeded_once": self.succeeded_once,
        }


def job_age(
    job: Job, *, known_since: datetime, last_succeeded: datetime | None, now: datetime
) -> JobAge:
    return JobAge(
        name=job.command,
        cadence=job.cadence,
        late_after=job.late_after,
        age=now - (last_succeeded or known_since),
        succeeded_once=last_succeeded is not None,
    )


def ages(
    rows: Sequence[tuple[str, datetime | None, datetime | None]], now: datetime
) -> list[JobAge]:
    """Each scheduled job's age from (name, known_since, last_succeeded) rows; rows of jobs no
    longer in the schedule are left out."""
    found = []
    for name, known_since, last_succeeded in rows:
        if (job := job_named(name)) and known_since is not None:
            found.append(
                job_age(job, known_since=known_since, last_succeeded=last_succeeded, now=now)
            )
    return found


def _moment(value: datetime | str | None) -> datetime | None:
    """A timestamp as the probe's raw connection returns it (SQLite gives text)."""
    if value is None or isinstance(value, datetime):
        moment = value
    else:
        moment = datetime.fromisoformat(value)
    if moment is not None and timezone.is_naive(moment):
        moment = timezone.make_aware(moment, UTC)
    return moment


def judge(rows: Sequence[Sequence[Any]], now: datetime) -> tuple[object, str | None]:
    """/readyz's view of the rows: each job's age against its cadence, and which are late."""
    found = ages([(name, _moment(since), _moment(done)) for name, since, done in rows], now)
    late = [age for age in found if age.late]
    problem = None
    if late:
        problem = "late: " + ", ".join(
            f"{age.name} (last {'succeeded' if age.succeeded_once else 'known'} "
            f"{_hours(age.age)} ago, {age.cadence})"
            for age in late
        )
    return {age.name: age.as_json() for age in found}, problem


def _hours(delta: timedelta) -> str:
    hours = delta.total_seconds() / 3600
    return f"{hours:.0f} h" if hours < 72 else f"{hours / 24:.0f} days"


def readiness_report() -> Report:
    table = JobHeartbeat._meta.db_table
    return Report(
        key="jobs",
        # The model's own table name: nothing here comes from a request.
        sql=f"SELECT name, known_since, last_succeeded FROM {table}",
        judge=judge,
    )
