"""Rebuilding the catalog's latent index off the request path, as a task of Django's Tasks
framework: `index_updates.py` enqueues one after each transaction that changed what the index
reads; the `worker` process runs it (with the immediate backend of development and tests, the
committing process does). A task that finds another one waiting returns at once: the waiting
one reads the catalog as it will be then."""

from django.tasks import task
from django_tasks_db import DatabaseBackend

from . import semantic


@task
def rebuild_latent_index() -> int | None:
    """Store the latent index of the catalog as it is now; the sources it covers, or None when
    a later rebuild waiting in the queue will do the work."""
    if rebuild_waiting():
        return None
    index = semantic.rebuild()
    return 0 if index is None else len(index.ids)


def rebuild_waiting() -> bool:
    backend = rebuild_latent_index.get_backend()
    if not isinstance(backend, DatabaseBackend):
        return False  # the other backends keep no queue this process can see
    from django_tasks_db.models import DBTaskResult

    waiting = DBTaskResult.objects.ready().filter(
        backend_name=backend.alias, task_path=rebuild_latent_index.module_path
    )
    return waiting.exists()
