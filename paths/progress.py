"""How far a reader, or a team, is along the paths they follow.

Counted by the database in a fixed number of queries whatever the number of paths followed or
their length: a reader following 200 paths of 100 steps costs what following one does.

- A reader: for each path, how many of its steps they have read (a bookmark "read") and the
  first step they have not, in one query of annotated paths plus one for the next steps'
  sources.
- A team: per step, how many members have read it, in one grouped query; the line shows the
  share of the team's reads, where most members stall (the first step most have not read) and
  the next steps a session could take.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from django.db.models import (
    Count,
    Exists,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
)
from django.db.models.functions import Coalesce
from django.utils import timezone

from catalog.models import Source
from catalog.querysets import private_sources_of_team
from library.models import Bookmark
from teams.models import Membership, Session

from .models import Path, PathStep

if TYPE_CHECKING:
    from accounts.models import User
    from teams.models import Team

    from .querysets import PathQuerySet

# Steps a session planned from a path's progress line takes.
SESSION_STEPS = 3


@dataclass
class ReaderProgress:
    path: Path
    total: int
    read: int
    next_source: Source | None = None

    @property
    def done(self) -> bool:
        return self.total > 0 and self.read >= self.total


def _count(queryset: QuerySet, group: str) -> Coalesce:
    return Coalesce(
        Subquery(
            queryset.order_by().values(group).annotate(n=Count("pk")).values("n")[:1],
            output_field=IntegerField(),
        ),
        Value(0),
    )


def annotate_reader_progress(paths: PathQuerySet, user: User) -> PathQuerySet:
    """Each path with `step_total`, `step_read` and `next_source_id` for `user` (one query)."""
    read = Bookmark.objects.filter(
        user=user, status=Bookmark.Status.READ, source_id=OuterRef("source_id")
    )
    steps = PathStep.objects.filter(path=OuterRef("pk"))
    return paths.annotate(
        step_total=_count(steps, "path"),
        step_read=_count(steps.filter(Exists(read)), "path"),
        next_source_id=Subquery(
            steps.exclude(Exists(read)).order_by("position", "pk").values("source_id")[:1]
        ),
    )


def followed_paths(user: User) -> PathQuerySet:
    """The paths `user` follows and may still see, the latest followed first."""
    return (
        Path.objects.visible_to(user)
        .filter(follows__user=user)
        .select_related("team", "user")
        .order_by("-follows__created", "-pk")
    )


def reader_progress(user: User, paths: PathQuerySet | None = None) -> list[ReaderProgress]:
    """Progress of `user` along `paths` (by default the paths they follow): two queries."""
    if not user.is_authenticated:
        return []
    rows = list(annotate_reader_progress(followed_paths(user) if paths is None else paths, user))
    next_ids = {row.next_source_id for row in rows if row.next_source_id}
    # A team-only next step shows to the team's members, who alone may follow its path.
    visible = Source.all_objects.visible_to(user).only("pk", "slug", "title")
    sources = visible.in_bulk(next_ids) if next_ids else {}
    return [
        ReaderProgress(row, row.step_total, row.step_read, sources.get(row.next_source_id))
        for row in rows
    ]


@dataclass
class TeamStep:
    source_id: int
    position: int
    finished: int


@dataclass
class TeamPathProgress:
    path: Path
    members: int
    steps: list[TeamStep] = field(default_factory=list)
    stall_source: Source | None = None
    next_session: Session | None = None

    @property
    def total(self) -> int:
        return len(self.steps)

    @property
    def reads(self) -> int:
        return sum(step.finished for step in self.steps)

    @property
    def possible(self) -> int:
        return self.members * self.total

    @property
    def percent(self) -> int:
        return round(100 * self.reads / self.possible) if self.possible else 0

    @property
    def stall(self) -> TeamStep | None:
        """The first step most members have not read: where the team stalls."""
        return next((step for step in self.steps if step.finished * 2 <= self.members), None)

    @property
    def next_steps(self) -> list[TeamStep]:
        """The next steps most members have not read, for a session to take."""
        return [step for step in self.steps if step.finished * 2 <= self.members][:SESSION_STEPS]

    @property
    def next_source_ids(self) -> list[int]:
        return [step.source_id for step in self.next_steps]


def team_paths(team: Team) -> PathQuerySet:
    """The paths `team` follows that its members may see: its own, and public or unlisted ones
    (a path that turned private to someone else drops off at once)."""
    return (
        Path.objects.filter(follows__team=team)
        .filter(Q(team=team) | Q(visibility__in=["public", "unlisted"]))
        .select_related("team", "user")
        .order_by("follows__created", "pk")
    )


def team_progress(team: Team, paths: PathQuerySet | None = None) -> list[TeamPathProgress]:
    """The team's progress along `paths` (by default those it follows), in five queries."""
    rows = list(team_paths(team) if paths is None else paths)
    if not rows:
        return []
    members = Membership.objects.filter(team=team)
    count = members.count()
    progress = {path.pk: TeamPathProgress(path, count) for path in rows}
    finished = Count(
        "source__bookmarks",
        filter=Q(
            source__bookmarks__status=Bookmark.Status.READ,
            source__bookmarks__user_id__in=members.values("user_id"),
        ),
    )
    steps = (
        PathStep.objects.filter(path__in=list(progress))
        .values("path_id", "source_id", "position")
        .annotate(finished=finished)
        .order_by("path_id", "position", "source_id")
    )
    for row in steps:
        progress[row["path_id"]].steps.append(
            TeamStep(row["source_id"], row["position"], row["finished"])
        )
    _fill_stalls_and_sessions(team, list(progress.values()))
    return [progress[path.pk] for path in rows]


def _fill_stalls_and_sessions(team: Team, lines: list[TeamPathProgress]) -> None:
    """The stalling step's source, and the next planned session that reads one of the path's
    steps, for every line at once (two queries)."""
    stall_ids = {line.stall.source_id for line in lines if line.stall}
    # The team's own sources too: its own team-only paths may stall on one.
    private = Q(status=Source.Status.PRIVATE)
    kept = Source.all_objects.filter(~private | private_sources_of_team(team.pk))
    sources = kept.only("pk", "slug", "title").in_bulk(stall_ids) if stall_ids else {}
    upcoming = (
        Session.objects.filter(
            team=team,
            starts_at__gte=timezone.now(),
            sources__path_steps__path__in=[line.path.pk for line in lines],
        )
        .values_list("sources__path_steps__path_id", "pk", "title", "starts_at")
        .order_by("starts_at", "pk")
    )
    sessions: dict[int, Session] = {}
    for path_id, pk, title, starts_at in upcoming:
        sessions.setdefault(path_id, Session(pk=pk, team=team, title=title, starts_at=starts_at))
    for line in lines:
        if line.stall:
            line.stall_source = sources.get(line.stall.source_id)
        line.next_session = sessions.get(line.path.pk)
