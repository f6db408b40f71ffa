"""The seam through which catalog pages show a reader's state.

Catalog templates ask through the `reading` template tags, which call these functions; the
catalog never imports the library's models. Every function costs a constant number of queries.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from django.db.models import Count

from catalog.models import ListEntry, ListSection
from catalog.querysets import each_once
from teams.models import Team

from .models import Bookmark
from .querysets import BookmarkQuerySet

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser
    from django.http import HttpRequest

    from accounts.models import User
    from catalog.models import Source

_CACHE_ATTR = "_reading_states"
_TEAM_CACHE_ATTR = "_team_finished"
_TEAMS_ATTR = "_viewer_teams"


def states_for(
    user: User | AnonymousUser, source_ids: Iterable[int] | None = None
) -> dict[int, str]:
    """{source_id: status} of `user`'s bookmarks, for `source_ids` or all of them: one query."""
    if not user.is_authenticated:
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


def viewer_teams(request: HttpRequest | None) -> list[Team]:
    """The signed-in reader's teams by name, fetched once per request; none for visitors."""
    if request is None or not request.user.is_authenticated:
        return []
    teams = getattr(request, _TEAMS_ATTR, None)
    if teams is None:
        teams = list(Team.objects.filter(members=request.user).order_by("name", "pk"))
        setattr(request, _TEAMS_ATTR, teams)
    return teams


@dataclass
class TeamFinished:
    """How many of one team's members finished a source: others, and whether the viewer did."""

    team: Team
    others: int
    you: bool


@dataclass
class _FinishedCounts:
    """The counts this request has read so far, and for which sources."""

    asked: set[int] = field(default_factory=set)
    counts: dict[tuple[int, int], int] = field(default_factory=dict)


def _finished_counts(
    request: HttpRequest, viewer: User, teams: list[Team], source_ids: set[int]
) -> dict[tuple[int, int], int]:
    """{(source_id, team_id): members other than the viewer who finished it}, for `source_ids`.

    Only the sources asked about are counted, through the index of finished bookmarks by source
    (bookmark_read_source): what is read grows with what the page shows, not with how much the
    viewer's teammates have read. Each source is counted once per request; a page names all its
    sources in the first call, so it costs one query.
    """
    cache = getattr(request, _TEAM_CACHE_ATTR, None)
    if cache is None:
        cache = _FinishedCounts()
        setattr(request, _TEAM_CACHE_ATTR, cache)
    missing = source_ids - cache.asked
    if missing:
        rows = (
            Bookmark.objects.filter(
                status=Bookmark.Status.READ,
                source_id__in=sorted(missing),
                user__memberships__team__in=[t.pk for t in teams],
            )
            .exclude(user=viewer)
            .values_list("source_id", "user__memberships__team_id")
            # The reader, not the row: the index holds both, so the bookmarks' rows are not read.
            .annotate(n=Count("user"))
            .order_by()
        )
        cache.counts.update(((source_id, team_id), n) for source_id, team_id, n in rows)
        cache.asked |= missing
    return cache.counts


def shown_source_ids(items: Iterable[Source | ListEntry | ListSection]) -> set[int]:
    """The ids of the sources a page shows, from its sources, list entries or list sections
    (their entries prefetched)."""
    ids: set[int] = set()
    for item in items:
        if isinstance(item, ListSection):
            ids.update(entry.source_id for entry in item.entries.all())
        elif isinstance(item, ListEntry):
            ids.add(item.source_id)
        else:
            ids.add(item.pk)
    return ids


def team_finished(
    request: HttpRequest | None,
    source: Source,
    among: Iterable[Source | ListEntry | ListSection] = (),
) -> list[TeamFinished]:
    """For each of the viewer's teams where anyone finished `source`, who did.

    `among` names everything the page shows this figure for (see shown_source_ids), so that the
    first call counts them all: two queries per request whatever the page lists (the viewer's
    teams, then the counts); anonymous visitors and readers in no team cost none.
    """
    if request is None or not request.user.is_authenticated:
        return []
    teams = viewer_teams(request)
    if not teams:
        return []
    counts = _finished_counts(request, request.user, teams, shown_source_ids(among) | {source.pk})
    you = request_states(request).get(source.pk) == Bookmark.Status.READ
    figures = (TeamFinished(t, counts.get((source.pk, t.pk), 0), you) for t in teams)
    return [figure for figure in figures if figure.others or figure.you]


@dataclass
class TeamActivity:
    team: Team
    read: list = field(default_factory=list)
    reading: list = field(default_factory=list)

    @property
    def total(self) -> int:
        return len(self.read) + len(self.reading)


def team_activity(source: Source, request: HttpRequest | None) -> list[TeamActivity]:
    """Who else in each of the viewer's teams has read or is reading `source`: two queries.

    A reader in two teams sees each team's figures under its name; visitors see none.
    """
    if request is None or not request.user.is_authenticated:
        return []
    teams = viewer_teams(request)
    if not teams:
        return []
    activity = {team.pk: TeamActivity(team) for team in teams}
    rows = (
        Bookmark.objects.filter(
            source=source,
            status__in=[Bookmark.Status.READ, Bookmark.Status.READING],
            user__memberships__team__in=list(activity),
        )
        .exclude(user=request.user)
        .values_list("status", "user__memberships__team_id", "user__display_name", "user__email")
        .order_by("user__display_name", "user__email")
    )
    for status, team_id, display_name, email in rows:
        name = display_name or email.split("@", 1)[0]
        team = activity[team_id]
        (team.read if status == Bookmark.Status.READ else team.reading).append(name)
    return list(activity.values())


def _team_bookmarks_newest_first(team: Team) -> BookmarkQuerySet:
    # Ordered like the bookmark_updated_desc index, so the database walks it newest first,
    # keeps the rows whose reader is in the team and stops at the limit: the rows read grow
    # with what the page shows, not with the team's size.
    # A team's own sources stay out: a member may belong to other teams, whose pages show this.
    found = Bookmark.objects.filter(user__memberships__team=team).exclude(source__status="private")
    return found.order_by("-updated", "-pk")


def team_recent_activity(team: Team, limit: int = 10) -> list[Bookmark]:
    """The team's members' latest changes of reading status, newest first: one query."""
    return list(_team_bookmarks_newest_first(team).select_related("user", "source")[:limit])


@dataclass(frozen=True)
class ActiveMember:
    name: str
    changes: int


def team_active_members(team: Team, window: int = 100, limit: int = 5) -> list[ActiveMember]:
    """The members behind most of the team's last `window` changes, busiest first: one query.

    Counting every member's bookmarks would grow with the team; the latest changes are what
    "active" means on the team's page, and reading them costs the same at any size.
    """
    rows = _team_bookmarks_newest_first(team).values_list(
        "user_id", "user__display_name", "user__email"
    )[:window]
    changes: Counter[int] = Counter()
    names: dict[int, str] = {}
    for user_id, display_name, email in rows:
        changes[user_id] += 1
        names.setdefault(user_id, display_name or email.split("@", 1)[0])
    # most_common keeps first-seen order among ties: the more recent member comes first.
    return [ActiveMember(names[pk], n) for pk, n in changes.most_common(limit)]
