"""Writes to a reader's library. Keyword-only, one transaction each."""

from __future__ import annotations

from contextlib import nullcontext
from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING

from django.db import IntegrityError, connection, transaction
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


def set_status(*, user: User, source: Source, status: str, unsaved: bool = False) -> Bookmark:
    """Save `source` in `user`'s library with `status`, creating the bookmark if needed.

    Idempotent: the same status again changes nothing, `updated` included, so a double submit
    keeps its dates. Written through the model: save() sets every field as the model defines
    it, and its post_save drops the reader's and their teams' cached pages after commit.

    `unsaved` is the caller's word that the reader does not have the source yet (the control
    they pressed showed it unsaved): the row is inserted at once, one statement, and read and
    changed only when it was there after all (saved from another tab). Without it the row is
    read first, which a status change needs anyway. Either way the result is the same.
    """
    status = Bookmark.Status(status)
    # Each step returns None when the row is not as it expected (already there, or not yet):
    # the next one handles it. The third covers losing a race to a concurrent insert or delete.
    steps = (_insert, _change, _insert) if unsaved else (_change, _insert, _change)
    for step in steps:
        bookmark = step(user, source, status)
        if bookmark is not None:
            return bookmark
    raise Bookmark.DoesNotExist("the bookmark was removed and saved again while being saved")


def _change(user: User, source: Source, status: BookmarkStatus) -> Bookmark | None:
    """The reader's bookmark of `source` with `status`, or None when there is none.

    No lock: the row is read, changed by _apply_dates and written whole, so whichever of two
    concurrent clicks writes last leaves a status with its own consistent dates.
    """
    try:
        bookmark = Bookmark.objects.get(user=user, source=source)
    except Bookmark.DoesNotExist:
        return None
    if bookmark.status != status:
        _apply_dates(bookmark, status, timezone.now())
        bookmark.save()
    return bookmark


def _insert(user: User, source: Source, status: BookmarkStatus) -> Bookmark | None:
    """A new bookmark of `source` with `status`, or None when the reader has it already."""
    now = timezone.now()
    bookmark = Bookmark(user=user, source=source, saved_at=now)
    _apply_dates(bookmark, status, now)
    try:
        # Outside a transaction the insert is one statement; inside one it gets a savepoint, so
        # that finding the row already there leaves the caller's transaction usable.
        with transaction.atomic() if connection.in_atomic_block else nullcontext():
            bookmark.save(force_insert=True)
    except IntegrityError:
        return None
    return bookmark


def remove_bookmark(*, user: User, source: Source) -> bool:
    """Remove `source` from `user`'s library. Removing what is not there is not an error.

    A queryset delete: its post_delete drops the pages the bookmark showed on, after commit.
    """
    deleted, _ = Bookmark.objects.filter(user=user, source=source).delete()
    return deleted > 0


def apply_action(
    *, user: User, source: Source, action: str, unsaved: bool = False
) -> Bookmark | None:
    """One control, four actions: a status, or `remove`. Returns the bookmark or None.

    Each action is one transaction of its own; wrapping them in another would only add a
    savepoint (two statements) around it. `unsaved`: see set_status.
    """
    if action == REMOVE:
        remove_bookmark(user=user, source=source)
        return None
    return set_status(user=user, source=source, status=action, unsaved=unsaved)


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
