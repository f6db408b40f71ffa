"""The one schedule (readinglist/schedule.py): every periodic command, and only real ones."""

import io
import re
from datetime import UTC, datetime

import pytest
from django.core.management import CommandError, call_command, get_commands, load_command_class
from pytest_django import Settings

from operations.management.commands import run_schedule
from readinglist.local_server import BASE_DIR
from readinglist.schedule import SCHEDULE, Job, crontab

yaml = pytest.importorskip("yaml")

SCHEDULED = {job.command for job in SCHEDULE}


def periodic_commands() -> set[str]:
    commands = get_commands()
    return {
        name
        for name, app in commands.items()
        if getattr(load_command_class(app, name), "periodic", False)
    }


def test_every_command_marked_periodic_is_scheduled() -> None:
    marked = periodic_commands()
    assert {"send_digests", "send_session_reminders", "notify_maintainers"} <= marked
    assert marked - SCHEDULED == set()


def test_the_schedule_names_only_commands_that_exist() -> None:
    assert SCHEDULED - set(get_commands()) == set()


def test_the_jobs_the_issue_found_unscheduled_are_scheduled() -> None:
    assert {
        "send_digests",
        "send_session_reminders",
        "check_links",
        "notify_maintainers",
        "purge_deleted_notes",
        "compute_related",
        "prune_db_task_results",
    } <= SCHEDULED


def test_each_job_says_why_and_its_arguments_parse(settings: Settings) -> None:
    # Production's task backend: prune_db_task_results refuses any other.
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    for job in SCHEDULE:
        assert len(job.why) > 20, job.command
        parser = load_command_class(get_commands()[job.command], job.command).create_parser(
            "manage.py", job.command
        )
        parser.parse_args(list(job.args))  # exits (SystemExit) on an unknown option


def test_the_compose_cron_service_runs_the_schedule() -> None:
    services = yaml.safe_load((BASE_DIR / "compose.yaml").read_text())["services"]
    assert services["cron"]["command"] == ["cron"]
    assert "entrypoint" not in services["cron"]
    # The image's entry point turns `cron` into the scheduler (tests/production/test_entrypoint).
    assert "manage.py run_schedule" in (BASE_DIR / "docker-entrypoint.sh").read_text()


def test_docs_quote_the_schedule_as_it_is() -> None:
    docs = (BASE_DIR / "docs" / "operations.md").read_text()
    for line in crontab().splitlines():
        assert line in docs, f"docs/operations.md does not quote: {line}"
    # The table of jobs spells each cadence out.
    for job in SCHEDULE:
        assert re.search(rf"`{job.command}`.*{re.escape(job.cadence)}", docs), job.command


@pytest.mark.parametrize(
    ("moment", "commands"),
    [
        (datetime(2026, 1, 5, 10, 0, tzinfo=UTC), ["send_digests"]),
        (datetime(2026, 1, 5, 6, 30, tzinfo=UTC), ["notify_maintainers"]),
        # 2026-01-11 is a Sunday: link health, weekly.
        (datetime(2026, 1, 11, 4, 20, tzinfo=UTC), ["check_links"]),
        (datetime(2026, 1, 12, 4, 20, tzinfo=UTC), []),
    ],
)
def test_jobs_are_due_at_their_minute(moment: datetime, commands: list[str]) -> None:
    due = run_schedule.jobs_due_between(moment - run_schedule.MINUTE, moment)
    assert [job.command for job in due] == commands


def test_minutes_missed_while_a_job_ran_are_caught_up_once() -> None:
    after = datetime(2026, 1, 5, 9, 58, tzinfo=UTC)
    until = datetime(2026, 1, 5, 11, 6, tzinfo=UTC)  # two hours' digests: sent once
    due = [job.command for job in run_schedule.jobs_due_between(after, until)]
    assert due == [
        "send_digests",
        "send_session_reminders",
        "purge_deleted_notes",
        "verify_team_domains",
        "send_notification_mail",
    ]


def test_crontab_lines_match_the_cadence() -> None:
    job = Job("check_links", "link health, weekly on Sundays", minute=20, hour=4, weekday=6)
    assert job.crontab == "20 4 * * 0  cd /app && python manage.py run_schedule --job check_links"
    assert job.cadence == "weekly, Sunday at 04:20 UTC"


def test_run_schedule_at_a_minute_runs_each_due_job_in_its_own_process(
    db: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    ran = []

    def fake_run(command: list[str], beat: object) -> tuple[int, str]:
        ran.append(command[2:])
        return (1 if command[2] == "send_digests" else 0), ""

    monkeypatch.setattr(run_schedule, "run_job", fake_run)
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(CommandError, match="Failed: send_digests"):
        call_command("run_schedule", at="2026-01-11T04:00", stdout=out, stderr=err)
    assert ran == [["send_digests"]]
    assert "send_digests exited with status 1" in err.getvalue()
    ran.clear()
    call_command("run_schedule", at="2026-01-11T04:20", stdout=out)
    assert ran == [["check_links", "--no-progress"]]


def test_run_schedule_refuses_a_malformed_time() -> None:
    with pytest.raises(CommandError, match="not 'tomorrow'"):
        call_command("run_schedule", at="tomorrow")


def test_crontab_option_prints_every_job() -> None:
    out = io.StringIO()
    call_command("run_schedule", crontab=True, stdout=out)
    assert out.getvalue().splitlines()[1:] == crontab().splitlines()


def test_expired_sessions_are_purged_daily_by_the_runner(
    db: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    (job,) = [job for job in SCHEDULE if job.command == "clearsessions"]
    assert job.cadence == "daily at 02:50 UTC"
    assert "manage.py run_schedule --job clearsessions" in crontab()
    ran: list[list[str]] = []

    def run_job(command: list[str], beat: object) -> tuple[int, str]:
        ran.append(command[2:])
        return 0, ""

    monkeypatch.setattr(run_schedule, "run_job", run_job)
    call_command("run_schedule", at="2026-01-05T02:50", stdout=io.StringIO())
    assert ran == [["clearsessions"]]


def test_clearsessions_deletes_expired_sessions_only(db: None) -> None:
    from datetime import timedelta

    from django.contrib.sessions.models import Session
    from django.utils import timezone

    now = timezone.now()
    Session.objects.create(session_key="old", session_data="", expire_date=now - timedelta(1))
    Session.objects.create(session_key="live", session_data="", expire_date=now + timedelta(1))
    call_command("clearsessions")
    assert list(Session.objects.values_list("session_key", flat=True)) == ["live"]
