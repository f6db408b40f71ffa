"""Every scheduled job records its last runs; /readyz and the admin show each one's age against
its cadence, and say which is late."""

import io
import sys
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import cast

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.test import Client
from django.utils import timezone

from operations import heartbeats
from operations.management.commands import run_schedule
from operations.models import JobHeartbeat
from readinglist import health
from readinglist.schedule import SCHEDULE, Job, job_named


def script(code: str) -> list[str]:
    return [sys.executable, "-c", code]


@pytest.fixture
def fake_jobs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each job's process is a tiny script: clearsessions fails with a message, others succeed."""

    def command(job: Job) -> list[str]:
        if job.command == "clearsessions":
            return script("import sys; sys.stderr.write('no such table\\n'); sys.exit(3)")
        return script("pass")

    monkeypatch.setattr(run_schedule, "job_command", command)


def judge(
    rows: Sequence[Sequence[object]], now: datetime
) -> tuple[dict[str, dict[str, object]], str | None]:
    """heartbeats.judge, with what /readyz shows as the JSON object it is."""
    shown, problem = heartbeats.judge(rows, now)
    return cast(dict[str, dict[str, object]], shown), problem


def test_the_runner_records_each_jobs_start_and_success(db: None, fake_jobs: None) -> None:
    call_command("run_schedule", at="2026-01-05T10:00", stdout=io.StringIO())
    beat = JobHeartbeat.objects.get(name="send_digests")
    assert beat.last_started is not None and beat.last_succeeded is not None
    assert beat.last_started <= beat.last_succeeded
    assert beat.last_failed is None and beat.last_error == ""


def test_the_runner_records_a_failure_with_the_end_of_its_error_output(
    db: None, fake_jobs: None, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(CommandError, match="Failed: clearsessions"):
        call_command("run_schedule", job="clearsessions", stdout=io.StringIO())
    beat = JobHeartbeat.objects.get(name="clearsessions")
    assert beat.last_succeeded is None and beat.last_failed is not None
    assert beat.last_error == "exited with status 3\nno such table\n"
    assert "no such table" in capsys.readouterr().err  # still in the container's log


def test_a_job_that_runs_long_keeps_the_runner_alive(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(run_schedule, "BEAT_SECONDS", 0.05)
    beats = []
    status, _ = run_schedule.run_job(
        script("import time; time.sleep(0.3)"), lambda: beats.append(1)
    )
    assert status == 0 and len(beats) >= 3


def test_job_names_only_a_scheduled_job() -> None:
    with pytest.raises(CommandError, match="'nope' is not a scheduled job; the schedule has: send"):
        call_command("run_schedule", job="nope")


def test_crontab_lines_go_through_the_runner_so_they_record_heartbeats() -> None:
    for job in SCHEDULE:
        assert job.crontab.endswith(f"python manage.py run_schedule --job {job.command}")


def test_a_database_outage_loses_a_heartbeat_not_the_run(
    db: None, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def down(**kwargs: object) -> None:
        from django.db import OperationalError

        raise OperationalError("server closed the connection")

    monkeypatch.setattr(JobHeartbeat.objects, "update_or_create", down)
    heartbeats.succeeded("send_digests")
    assert "Could not record send_digests's heartbeat" in caplog.text


NOW = datetime(2026, 1, 12, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("name", "succeeded_ago", "late"),
    [
        ("send_digests", timedelta(hours=1, minutes=50), False),
        ("send_digests", timedelta(hours=2, minutes=1), True),
        ("check_links", timedelta(days=13), False),
        ("check_links", timedelta(days=15), True),
    ],
)
def test_a_job_is_late_after_twice_its_period(
    name: str, succeeded_ago: timedelta, late: bool
) -> None:
    shown, problem = judge([(name, NOW - timedelta(days=30), NOW - succeeded_ago)], NOW)
    assert shown[name]["late"] is late
    assert (problem is not None) is late
    if late:
        assert problem is not None and problem.startswith(f"late: {name} (last succeeded ")
        job = job_named(name)
        assert job is not None and job.cadence in problem


def test_a_job_that_never_succeeded_is_judged_from_when_the_runner_knew_it() -> None:
    rows = [("compute_related", NOW - timedelta(days=3), None), ("gone", NOW, None)]
    shown, problem = judge(rows, NOW)
    assert list(shown) == ["compute_related"]  # a job no longer scheduled is left out
    assert shown["compute_related"]["succeeded_once"] is False
    assert problem == "late: compute_related (last known 3 days ago, daily at 03:15 UTC)"


def test_sqlite_text_timestamps_are_read() -> None:
    shown, _ = judge([("send_digests", "2026-01-12 11:00:00", None)], NOW)
    assert shown["send_digests"]["age_seconds"] == 3600


@pytest.fixture
def fresh_readiness(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(health, "_migrated", False)


def beat(name: str, ago: timedelta) -> None:
    JobHeartbeat.objects.create(name=name)
    JobHeartbeat.objects.filter(name=name).update(
        known_since=timezone.now() - timedelta(days=30), last_succeeded=timezone.now() - ago
    )


# The probe reads on a connection of its own, which sees only committed rows.
@pytest.mark.django_db(transaction=True)
def test_readyz_names_a_late_job_and_stays_in_service(
    client: Client, fresh_readiness: None
) -> None:
    beat("send_digests", timedelta(minutes=30))
    beat("check_links", timedelta(days=20))
    response = client.get("/readyz")
    # 200: a late job is the scheduler's problem; taking web out of service would not fix it.
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "degraded"
    assert body["reason"].startswith("late: check_links (last succeeded 20 days ago")
    assert body["jobs"]["send_digests"]["late"] is False
    assert body["jobs"]["check_links"]["late_after_seconds"] == 14 * 24 * 3600


@pytest.mark.django_db(transaction=True)
def test_readyz_shows_jobs_on_time_as_ok(client: Client, fresh_readiness: None) -> None:
    heartbeats.know_schedule()
    response = client.get("/readyz")
    assert response.json()["status"] == "ok"
    assert set(response.json()["jobs"]) == {job.command for job in SCHEDULE}


@pytest.mark.django_db(transaction=True)
def test_readyz_fails_open_when_the_heartbeats_cannot_be_read(
    client: Client, fresh_readiness: None
) -> None:
    beat("check_links", timedelta(days=20))
    with connection.cursor() as cursor:
        cursor.execute("ALTER TABLE operations_jobheartbeat RENAME TO jobheartbeat_moved")
    try:
        response = client.get("/readyz")
    finally:
        with connection.cursor() as cursor:
            cursor.execute("ALTER TABLE jobheartbeat_moved RENAME TO operations_jobheartbeat")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


def test_the_admin_shows_each_jobs_age_against_its_cadence(admin_client: Client) -> None:
    beat("check_links", timedelta(days=20))
    beat("send_digests", timedelta(minutes=30))
    response = admin_client.get("/admin/operations/jobheartbeat/")
    page = response.content.decode()
    assert response.status_code == 200
    assert "Late?" in page and "weekly, Sunday at 04:20 UTC" in page
    assert page.count('alt="True"') == 1 and page.count('alt="False"') == 1
    assert "20 days, 0:00:00" in page
    assert admin_client.get("/admin/operations/jobheartbeat/add/").status_code == 403
