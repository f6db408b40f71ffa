"""Recomputing related sources off the request path, as tasks of Django's Tasks framework.

triggers.py enqueues one after each transaction that changed what neighbours depend on. With
TASKS_BACKEND=database (production's default) django-tasks-db stores it and `manage.py
db_worker` (the `worker` service) runs it; with the immediate backend (development, tests) it
runs at once, in the process that committed the change, as recomputing always did.

Bursts: an admin renaming topics one after another, or a script saving sources one by one,
enqueues a task per transaction. A task returns at once, doing nothing, while a full recompute
is waiting in the queue: that one starts later, so it reads the catalog as it will be then,
with every change committed before this task was enqueued. A burst of full recomputes thus
costs one running and one waiting, and changed-source tasks queued before a full one cost
nothing.
"""

from django.tasks import task
from django_tasks_db import DatabaseBackend

from .compute import recompute_neighbours


@task
def recompute_all_related() -> int | None:
    """Every source's neighbours. Returns the rows stored, or None when a later full recompute
    waiting in the queue will do the work."""
    if full_recompute_waiting():
        return None
    return recompute_neighbours()


@task
def recompute_related(changed: list[int]) -> int | None:
    """The neighbours of the `changed` sources and of the sources they may enter or leave."""
    if full_recompute_waiting():
        return None
    return recompute_neighbours(changed=set(changed))


def full_recompute_waiting() -> bool:
    """Whether a full recompute is queued and not started (a task that is running is not
    waiting, so this never counts the caller)."""
    backend = recompute_all_related.get_backend()
    if not isinstance(backend, DatabaseBackend):
        return False  # the other backends keep no queue this process can see
    from django_tasks_db.models import DBTaskResult

    waiting = DBTaskResult.objects.ready().filter(
        backend_name=backend.alias, task_path=recompute_all_related.module_path
    )
    return waiting.exists()
