"""Writes to a reader's library. Keyword-only, one transaction each."""

from __future__ import annotations

from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING

from django.db import connections, transaction
from django.utils import timezone

from readinglist.pagecache import bump_reader_and_team_versions

from .models import Bookmark, BookmarkStatus

if TYPE_CHECKING:
    from accounts.models import User
    from catalog.models import Source

REMOVE = "remove"


def _apply_dates(bookmark: Bookmark, status: BookmarkStatus, now: datetime) -> None:
    """Dates follow the status: starting sets started_at once, finishing stamps finished_at."""
    if status == Bookmark.Status.TO_READ:
        bookmark.started_at = None
        bookmark.finished_at = None
    elif status == Bookmark.Status.READING:
        bookmark.started_at = bookmark.started_at or now
        bookmark.finished_at = None
    else:
        bookmark.started_at = bookmark.started_at or now
        bookmark.finished_at = now
    bookmark.status = status


# One statement saves a status: an insert that, when the reader has the source already, changes
# the status instead. The database makes concurrent writes to the row wait for each other, so
# nothing is locked or read first, and the row always comes back. The dates follow
# _apply_dates: a new status sets started_at only when it had none, and to-read clears it. The
# same status again changes nothing, `updated` included (a double submit keeps its dates), which
# is how the caller tells a change from a repeat.
_SAME = '"accounts_bookmark"."status" = excluded."status"'
_UPSERT = f"""INSERT INTO "accounts_bookmark"
    ("user_id", "source_id", "status", "saved_at", "started_at", "finished_at", "updated")
VALUES (%s, %s, %s, %s, %s, %s, %s)
ON CONFLICT ("user_id", "source_id") DO UPDATE SET
    "status" = excluded."status",
    "started_at" = CASE WHEN {_SAME} THEN "accounts_bookmark"."started_at"
        WHEN excluded."started_at" IS NULL THEN NULL
        ELSE COALESCE("accounts_bookmark"."started_at", excluded."started_at") END,
    "finished_at" = CASE WHEN {_SAME} THEN "accounts_bookmark"."finished_at"
        ELSE excluded."finished_at" END,
    "updated" = CASE WHEN {_SAME} THEN "accounts_bookmark"."updated" ELSE excluded."updated" END
RETURNING "id", "user_id", "source_id", "status", "saved_at", "started_at", "finished_at", "updated"
"""
_DELETE = 'DELETE FROM "accounts_bookmark" WHERE "user_id" = %s AND "source_id" = %s'


def set_status(*, user: User, source: Source, status: str) -> Bookmark:
    """Save `source` in `user`'s library with `status`, creating the bookmark if needed.

    Idempotent: a double submit finds the row made by the first and leaves its dates untouched.
    One statement (see _UPSERT), which sends no signal: when it changed something, the reader's
    and their teams' cached pages are dropped here, after commit.
    """
    status = Bookmark.Status(status)
    now = timezone.now()
    new = Bookmark(saved_at=now)
    _apply_dates(new, status, now)
    params = [user.pk, source.pk, status.value, now, new.started_at, new.finished_at, now]
    (bookmark,) = Bookmark.objects.raw(_UPSERT, params)
    if bookmark.updated == now:
        transaction.on_commit(partial(bump_reader_and_team_versions, user.pk))
    return bookmark


def remove_bookmark(*, user: User, source: Source) -> bool:
    """Remove `source` from `user`'s library. Removing what is not there is not an error.

    One DELETE, without Django's collector (which would read the row first to send signals):
    nothing refers to a bookmark, and the pages it showed on are dropped here, after commit.
    """
    with connections[Bookmark.objects.db].cursor() as cursor:
        cursor.execute(_DELETE, [user.pk, source.pk])
        deleted = cursor.rowcount
    if deleted:
        transaction.on_commit(partial(bump_reader_and_team_versions, user.pk))
    return deleted > 0


def apply_action(*, user: User, source: Source, action: str) -> Bookmark | None:
    """One control, four actions: a status, or `remove`. Returns the bookmark or None.

    Each action is one transaction of its own; wrapping them in another would only add a
    savepoint (two statements) around it.
    """
    if action == REMOVE:
        remove_bookmark(user=user, source=source)
        return None
    return set_status(user=user, source=source, status=action)


@transaction.atomic
def bulk_apply(*, user: User, bookmark_ids: list[int], action: str) -> int:
    """Apply one action to several of `user`'s bookmarks. Returns how many were changed.

    Only the reader's own rows are touched: ids of other readers' bookmarks match nothing.
    """
    mine = Bookmark.objects.filter(user=user, pk__in=bookmark_ids)
    if action == REMOVE:
        deleted, _ = mine.delete()
        return deleted
    status = Bookmark.Status(action)
    now = timezone.now()
    changed = [b for b in mine.select_for_update() if b.status != status]
    for bookmark in changed:
        _apply_dates(bookmark, status, now)
        bookmark.updated = now
    Bookmark.objects.bulk_update(changed, ["status", "started_at", "finished_at", "updated"])
    if changed:
        # bulk_update() sends no signal: drop the reader's cached pages, and their teammates'
        # pages that count who finished what, after commit (see readinglist.pagecache).
        transaction.on_commit(partial(bump_reader_and_team_versions, user.pk))
    return len(changed)
