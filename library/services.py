"""Writes to a reader's library. Keyword-only, one transaction each."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone

from readinglist.pagecache import bump_reader_version, bump_team_version

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


@transaction.atomic
def set_status(*, user: User, source: Source, status: str) -> Bookmark:
    """Save `source` in `user`'s library with `status`, creating the bookmark if needed.

    Idempotent: a double submit finds the row made by the first (get_or_create retries the read
    when the unique constraint refuses a concurrent insert) and leaves its dates untouched.
    """
    status = Bookmark.Status(status)
    now = timezone.now()
    new = Bookmark(saved_at=now)
    _apply_dates(new, status, now)
    bookmark, created = Bookmark.objects.select_for_update().get_or_create(
        user=user,
        source=source,
        defaults={f: getattr(new, f) for f in ("status", "saved_at", "started_at", "finished_at")},
    )
    if not created and bookmark.status != status:
        _apply_dates(bookmark, status, now)
        bookmark.save(update_fields=["status", "started_at", "finished_at", "updated"])
    return bookmark


@transaction.atomic
def remove_bookmark(*, user: User, source: Source) -> bool:
    """Remove `source` from `user`'s library. Removing what is not there is not an error."""
    deleted, _ = Bookmark.objects.filter(user=user, source=source).delete()
    return deleted > 0


@transaction.atomic
def apply_action(*, user: User, source: Source, action: str) -> Bookmark | None:
    """One control, four actions: a status, or `remove`. Returns the bookmark or None."""
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
        transaction.on_commit(lambda: _bump_reader_and_team_versions(user))
    return len(changed)


def _bump_reader_and_team_versions(user: User) -> None:
    bump_reader_version(user.pk)
    bump_team_version()
