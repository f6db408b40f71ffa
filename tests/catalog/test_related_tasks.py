"""Related sources are recomputed by tasks, off the request that changed the catalog."""

import logging
import os
import signal
import subprocess
import sys
from typing import cast

import pytest
from django.core.management import call_command
from django.tasks import default_task_backend
from django.tasks.backends.dummy import DummyBackend
from django.test import override_settings
from django_tasks_db.models import DBTaskResult
from pytest_django import DjangoCaptureOnCommitCallbacks

from catalog.models import Source, SourceNeighbour, Topic
from catalog.related.tasks import recompute_all_related, recompute_related
from tests.hints import Tiers

from ..factories import SourceFactory, TopicFactory

DUMMY = {"default": {"BACKEND": "django.tasks.backends.dummy.DummyBackend"}}
DATABASE = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


def two_similar_sources() -> tuple[Topic, Source, Source]:
    topic = TopicFactory(name="Kernels")
    first = SourceFactory(title="Warp specialised attention", topics=[topic])
    second = SourceFactory(title="Warp specialised matmul", topics=[topic])
    return topic, first, second


def run_worker() -> None:
    """`manage.py db_worker` until the queue is empty, as the worker service runs it, leaving
    the signal handlers and log levels it sets as they were."""
    handlers = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    loggers = [logging.getLogger(name) for name in ("django.tasks", "django_tasks_db")]
    levels = [(logger, logger.level, list(logger.handlers)) for logger in loggers]
    try:
        call_command("db_worker", "--batch", "--no-startup-delay", "--no-reload", verbosity=0)
    finally:
        for sig, handler in handlers.items():
            signal.signal(sig, handler)
        for logger, level, kept in levels:
            logger.setLevel(level)
            logger.handlers[:] = kept


@pytest.mark.django_db
@override_settings(TASKS=DUMMY)
def test_a_committed_change_enqueues_a_task_and_computes_nothing(
    tiers: Tiers, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        topic, first, _ = two_similar_sources()  # a new topic: any source may have changed
    with django_capture_on_commit_callbacks(execute=True):
        first.title = "Warp specialised softmax"
        first.save()
    with django_capture_on_commit_callbacks(execute=True):
        topic.name = "GPU kernels"
        topic.save()
    related_tasks = {recompute_all_related.func, recompute_related.func}
    queued = [
        (result.task.func, result.args)
        for result in cast(DummyBackend, default_task_backend).results
        if result.task.func in related_tasks  # search queues its own rebuild beside these
    ]
    assert queued == [
        (recompute_all_related.func, []),
        (recompute_related.func, [[first.pk]]),
        (recompute_all_related.func, []),
    ]
    assert not SourceNeighbour.objects.exists()


@pytest.mark.django_db(transaction=True)
@override_settings(TASKS=DATABASE)
def test_the_worker_computes_what_a_change_enqueued(tiers: Tiers) -> None:
    _, first, second = two_similar_sources()  # no transaction: each save commits and enqueues
    assert DBTaskResult.objects.ready().exists()
    assert not SourceNeighbour.objects.exists()
    run_worker()
    assert SourceNeighbour.objects.filter(source=first, neighbour=second).exists()
    assert not DBTaskResult.objects.exclude(status="SUCCESSFUL").exists()


@pytest.mark.django_db(transaction=True)
@override_settings(TASKS=DATABASE)
def test_a_burst_of_changes_costs_one_full_recompute(tiers: Tiers) -> None:
    _, first, _ = two_similar_sources()
    DBTaskResult.objects.all().delete()
    recompute_related.enqueue([first.pk])
    for _ in range(3):
        recompute_all_related.enqueue()
    run_worker()
    results = DBTaskResult.objects.order_by("enqueued_at")
    returned = [(row.task_path.rsplit(".", 1)[1], row.return_value) for row in results]
    # Each task found a full recompute still waiting behind it, except the last one.
    assert returned == [
        ("recompute_related", None),
        ("recompute_all_related", None),
        ("recompute_all_related", None),
        ("recompute_all_related", 2),
    ]


@pytest.mark.django_db
def test_the_tasks_handle_an_empty_and_a_one_source_catalog(tiers: Tiers) -> None:
    assert recompute_all_related.call() == 0
    only = SourceFactory(title="Lonely", topics=[TopicFactory()])
    assert recompute_all_related.call() == 0
    assert recompute_related.call([only.pk]) == 0
    assert recompute_related.call([only.pk + 1000]) == 0  # gone since it was enqueued


@pytest.mark.parametrize(
    ("env", "backend"),
    [
        ({}, "django_tasks_db.DatabaseBackend"),
        ({"DEBUG": "true"}, "django.tasks.backends.immediate.ImmediateBackend"),
        ({"TASKS_BACKEND": "immediate"}, "django.tasks.backends.immediate.ImmediateBackend"),
    ],
)
def test_production_queues_tasks_and_development_runs_them_at_once(
    env: dict[str, str], backend: str
) -> None:
    base = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "TASKS_BACKEND"}}
    code = "import readinglist.settings as s; print(s.TASKS['default']['BACKEND'])"
    result = subprocess.run(
        [sys.executable, "-c", code],
        env={**base, "SECRET_KEY": "x", **env},
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.strip() == backend
