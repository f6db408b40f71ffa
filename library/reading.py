"""The seam through which catalog pages show a reader's state.

Catalog templates ask through the `reading` template tags, which call these functions; the
catalog never imports the library's models. Every function costs a constant number of queries.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from django.db.models import Count

from catalog.querysets import each_once

from .models import Bookmark

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser
    from django.http import HttpRequest

    from accounts.models import User
    from catalog.models import Source

_CACHE_ATTR = "_reading_states"
_TEAM_CACHE_ATTR = "_team_finished"


def states_for(
    user: User | AnonymousUser, source_ids: Iterable[int] | None = None
) -> dict[int, str]:
    """{source_id: status} of `user`'s bookmarks, for `source_ids` or all of them: one query."""
    if not getattr(user, "is_authenticated", False):
        return {}
    bookmarks = Bookmark.objects.filter(user=user)
    if source_ids is not None:
        bookmarks = bookmarks.filter(source_id__in=list(source_ids))
    return dict(bookmarks.values_list("source_id", "status"))


def request_states(request: HttpRequest | None) -> dict[int, str]:
    """The signed-in reader's whole library as {source_id: status}, fetched once per request.

    A library holds at most a few hundred rows, so one query for all of them beats one per card
    and keeps every page flat whatever it lists. Anonymous visitors cost nothing.
    """
    if request is None:
        return {}
    states = getattr(request, _CACHE_ATTR, None)
    if states is None:
        states = states_for(request.user)
        setattr(request, _CACHE_ATTR, states)
    return states


def forget_request_states(request: HttpRequest) -> None:
    """After a write, the next lookup on this request reads the library again."""
    if hasattr(request, _CACHE_ATTR):
        delattr(request, _CACHE_ATTR)


@dataclass
class ReadingProgress:
    """A reader's position along an ordered run of sources."""

    sources: list
    read_ids: set = field(default_factory=set)

    @property
    def total(self) -> int:
        return len(self.sources)

    @property
    def read(self) -> int:
        return sum(1 for source in self.sources if source.pk in self.read_ids)

    @property
    def percent(self) -> int:
        return round(100 * self.read / self.total) if self.total else 0

    @property
    def next_source(self) -> Source | None:
        """The first source in order that the reader has not finished."""
        return next((s for s in self.sources if s.pk not in self.read_ids), None)

    @property
    def complete(self) -> bool:
        return self.total > 0 and self.read == self.total


def progress_along(sources: Iterable[Source], states: dict[int, str]) -> ReadingProgress:
    """Progress along `sources` (in order) given a reader's {source_id: status}."""
    sources = each_once(sources)
    read_ids = {s.pk for s in sources if states.get(s.pk) == Bookmark.Status.READ}
    return ReadingProgress(sources=sources, read_ids=read_ids)


def team_finished(request: HttpRequest | None) -> dict[int, int]:
    """{source_id: number of members who finished it}, one aggregate query per request.

    Members only: anonymous visitors get nothing, so the query is not even run for them.
    """
    if request is None or not request.user.is_authenticated:
        return {}
    counts = getattr(request, _TEAM_CACHE_ATTR, None)
    if counts is None:
        counts = dict(
            Bookmark.objects.filter(status=Bookmark.Status.READ)
            .values_list("source_id")
            .annotate(n=Count("user_id"))
            .order_by()
        )
        setattr(request, _TEAM_CACHE_ATTR, counts)
    return counts


@dataclass
class TeamActivity:
    read: list
    reading: list

    @property
    def total(self) -> int:
        return len(self.read) + len(self.reading)


def team_activity(source: Source, viewer: User | AnonymousUser | None) -> TeamActivity | None:
    """Who else on the team has read or is reading `source`: one query, members only."""
    if not getattr(viewer, "is_authenticated", False):
        return None
    bookmarks = (
        Bookmark.objects.filter(
            source=source, status__in=[Bookmark.Status.READ, Bookmark.Status.READING]
        )
        .exclude(user=viewer)
        .select_related("user")
        .order_by("user__display_name", "user__email")
    )
    activity = TeamActivity(read=[], reading=[])
    for bookmark in bookmarks:
        group = activity.read if bookmark.status == Bookmark.Status.READ else activity.reading
        group.append(bookmark.user.public_name)
    return activity
