"""The import's one write: add the matched sources the reader has not saved yet."""

from functools import partial

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from readinglist.pagecache import bump_reader_and_team_versions

from ..models import Bookmark
from .matching import Match


@transaction.atomic
def add_matches(*, user: User, matches: list[Match], status: str) -> int:
    """Bookmark every matched source not already in the library; existing bookmarks keep their
    status and dates. Returns how many sources were added."""
    status = Bookmark.Status(status)
    now = timezone.now()
    started = now if status != Bookmark.Status.TO_READ else None
    finished = now if status == Bookmark.Status.READ else None
    new_ids = list(dict.fromkeys(m.source.pk for m in matches if m.is_new and m.source is not None))
    created = Bookmark.objects.bulk_create(
        [
            Bookmark(
                user=user,
                source_id=source_id,
                status=status,
                saved_at=now,
                started_at=started,
                finished_at=finished,
            )
            for source_id in new_ids
        ],
        ignore_conflicts=True,
    )
    if created:
        # bulk_create() sends no signal: drop the reader's and their teams' cached pages after
        # commit.
        transaction.on_commit(partial(bump_reader_and_team_versions, user.pk))
    return len(created)
