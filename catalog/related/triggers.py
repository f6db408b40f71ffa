"""Recompute related sources after any transaction that changed what they depend on.

Titles, aliases, summaries and status of sources, their topics and curators' links, list
entries, sections, lists and topic names. Changes are gathered per thread while the transaction
runs and handled once, after it commits, by enqueueing a task (tasks.py): a change to a few
sources recomputes those and the sources they touch; a change to a topic, section or list
(names many sources share) recomputes everything, which takes seconds at 10,000 sources, so it
must not run in the request that made the change. Outside a transaction each save commits, and
enqueues, on its own.
"""

import threading
from typing import Any

from django.db import models, transaction
from django.db.models.signals import m2m_changed, post_delete, post_save

from ..models import ListEntry, ListSection, ReadingList, Source, Topic
from .tasks import recompute_all_related, recompute_related

# Saving only other fields of a source (link checks, re-verification) changes no neighbour.
SOURCE_FIELDS_THAT_MATTER = {"title", "aliases", "summary", "status"}
WATCHED: tuple[type[models.Model], ...] = (Source, Topic, ListEntry, ListSection, ReadingList)

_local = threading.local()


class _Batch:
    """The changes of one transaction, handed to one task when it commits."""

    def __init__(self) -> None:
        self.changed: set[int] = set()
        self.everything = False
        self.done = False

    def run(self) -> None:
        # Scheduled once per change; the first call after the commit does the work.
        if self.done:
            return
        self.done = True
        if getattr(_local, "batch", None) is self:
            _local.batch = None
        if self.everything:
            recompute_all_related.enqueue()
        elif self.changed:
            recompute_related.enqueue(sorted(self.changed))


def _add_to_batch(touched: set[int] | None, using: str | None) -> None:
    batch = getattr(_local, "batch", None)
    # A batch belongs to the transaction whose commit will run it: after a rollback its
    # callback is gone, and the next change starts a batch of its own.
    pending = transaction.get_connection(using).run_on_commit
    if batch is None or batch.done or not any(entry[1] == batch.run for entry in pending):
        batch = _local.batch = _Batch()
    _record(batch, touched)
    transaction.on_commit(batch.run, using=using)  # outside a transaction: runs now


def _record(batch: _Batch, touched: set[int] | None) -> None:
    if touched is None:
        batch.everything = True
    else:
        batch.changed |= touched


def _matters(sender: type[models.Model], kwargs: dict[str, Any]) -> bool:
    if kwargs.get("signal") is m2m_changed:
        return kwargs["action"].startswith("post_")
    fields = kwargs.get("update_fields")
    if sender is Source and fields is not None:
        return bool(set(fields) & SOURCE_FIELDS_THAT_MATTER)
    return True


def _changed_sources(
    sender: type[models.Model], instance: models.Model | None, kwargs: dict[str, Any]
) -> set[int] | None:
    """The ids of the sources a change touches, or None when it may touch any."""
    # post_save and post_delete send an instance of the sender; isinstance tells the type checker.
    if sender is Source and isinstance(instance, Source):
        # A deleted source's rows went with it, so who listed it can no longer be looked up.
        return None if kwargs.get("signal") is post_delete else {instance.pk}
    if sender is ListEntry and isinstance(instance, ListEntry):
        return {instance.source_id}
    if sender in (Source.topics.through, Source.related.through):
        ids = set(kwargs.get("pk_set") or ())
        if isinstance(instance, Source):
            return ids | {instance.pk} if sender is Source.related.through else {instance.pk}
        return ids or None  # a topic's sources, or all of them after topic.sources.clear()
    return None


def _catalog_changed(
    sender: type[models.Model], instance: models.Model | None = None, **kwargs: Any
) -> None:
    if kwargs.get("raw") or not _matters(sender, kwargs):
        return
    _add_to_batch(_changed_sources(sender, instance, kwargs), kwargs.get("using"))


def connect_signals() -> None:
    for model in WATCHED:
        for signal in (post_save, post_delete):
            uid = f"related-{model.__name__}-{id(signal)}"
            signal.connect(_catalog_changed, sender=model, dispatch_uid=uid)
    for through in (Source.topics.through, Source.related.through):
        uid = f"related-{through.__name__}"
        m2m_changed.connect(_catalog_changed, sender=through, dispatch_uid=uid)
