"""After any transaction that changed what the latent index reads (sources' titles, aliases,
summaries, keywords and status, their topics, topic names), one rebuild is enqueued when it
commits (tasks.py). Outside a transaction each save commits, and enqueues, on its own."""

import threading
from typing import Any

from django.db import models, transaction
from django.db.models.signals import m2m_changed, post_delete, post_save

from catalog.models import Source, Topic

from .tasks import rebuild_latent_index

# Saving only other fields of a source (link checks, re-verification) changes nothing indexed.
INDEXED_FIELDS = {"title", "aliases", "summary", "keywords", "status"}

_local = threading.local()


class _Pending:
    """One transaction's rebuild, enqueued once when it commits."""

    def __init__(self) -> None:
        self.done = False

    def run(self) -> None:
        if self.done:
            return
        self.done = True
        rebuild_latent_index.enqueue()


def _catalog_changed(sender: type[models.Model], **kwargs: Any) -> None:
    if kwargs.get("raw"):
        return
    if kwargs.get("signal") is m2m_changed and not kwargs["action"].startswith("post_"):
        return
    fields = kwargs.get("update_fields")
    if sender is Source and fields is not None and not set(fields) & INDEXED_FIELDS:
        return
    using = kwargs.get("using")
    pending = getattr(_local, "pending", None)
    # A pending rebuild belongs to the transaction whose commit runs it: after a rollback its
    # callback is gone, and the next change starts one of its own.
    scheduled = transaction.get_connection(using).run_on_commit
    if pending is None or pending.done or not any(entry[1] == pending.run for entry in scheduled):
        pending = _local.pending = _Pending()
        transaction.on_commit(pending.run, using=using)  # outside a transaction: runs now


def connect_signals() -> None:
    for model in (Source, Topic):
        for signal in (post_save, post_delete):
            uid = f"latent-index-{model.__name__}-{id(signal)}"
            signal.connect(_catalog_changed, sender=model, dispatch_uid=uid)
    m2m_changed.connect(
        _catalog_changed, sender=Source.topics.through, dispatch_uid="latent-index-topics"
    )
