"""The worker's and the scheduler's health checks: each judges what its process does."""

import os
import time
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone
from django_tasks_db.models import DBTaskResult, get_date_max

from operations import liveness


@pytest.fixture
def heartbeat_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("HEARTBEAT_DIR", str(tmp_path))
    return tmp_path


def test_cron_is_healthy_while_it_beats(heartbeat_dir: Path) -> None:
    with pytest.raises(CommandError, match=r"cron: no heartbeat at .*readinglist-cron.alive"):
        call_command("healthcheck", job="cron")
    liveness.beat("cron")
    call_command("healthcheck", job="cron")
    old = time.time() - liveness.MAX_AGE_SECONDS - 5
    os.utime(heartbeat_dir / "readinglist-cron.alive", (old, old))
    with pytest.raises(CommandError, match=r"cron: last heartbeat 18\d s ago .*stuck or stopped"):
        call_command("healthcheck", job="cron")


def test_the_liveness_module_answers_without_django(
    heartbeat_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert liveness.main(["cron"]) == 1
    liveness.beat("cron")
    assert liveness.main(["cron"]) == 0
    assert capsys.readouterr().out == "cron: alive\n"


def test_a_folder_it_cannot_write_to_does_not_stop_the_scheduler(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HEARTBEAT_DIR", str(tmp_path / "missing"))
    liveness.beat("cron")  # no exception: the check reports it
    assert "no heartbeat" in (liveness.problem("cron") or "")


def waiting_task(waited: timedelta, run_after: datetime | None = None) -> DBTaskResult:
    task = DBTaskResult.objects.create(
        args_kwargs={"args": [], "kwargs": {}},
        task_path="catalog.tasks.recompute_related",
        backend_name="default",
        run_after=run_after or get_date_max(),
    )
    DBTaskResult.objects.filter(pk=task.pk).update(enqueued_at=timezone.now() - waited)
    return task


def test_the_worker_is_healthy_while_tasks_are_taken(db: None) -> None:
    call_command("healthcheck", job="worker")  # an empty queue
    waiting_task(timedelta(minutes=2))
    call_command("healthcheck", job="worker")


def test_a_task_waiting_too_long_makes_the_worker_unhealthy(db: None) -> None:
    waiting_task(timedelta(minutes=30))
    with pytest.raises(CommandError, match=r"worker: a task has waited 18\d\d s to run"):
        call_command("healthcheck", job="worker")


def test_a_task_told_to_run_later_waits_from_then(db: None) -> None:
    waiting_task(timedelta(hours=5), run_after=timezone.now() - timedelta(minutes=1))
    call_command("healthcheck", job="worker")


def test_a_database_outage_is_not_the_workers_fault(
    db: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.db import OperationalError

    def down(self: object) -> None:
        raise OperationalError("connection refused")

    monkeypatch.setattr(type(DBTaskResult.objects), "ready", down, raising=False)
    call_command("healthcheck", job="worker")
