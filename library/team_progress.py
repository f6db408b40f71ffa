"""Where a team is along the reading lists it follows: per step, how many members finished it,
who is reading it, where members stall, and how long finishing takes.

Everything is counted by the database in a fixed number of queries, whatever the team's size:
a team of a thousand costs the same number of queries as a team of ten. The lists a team
follows are the teams app's (`FollowedList`); the team page reads this through the
`{% team_progress %}` tag, as other pages read a reader's state.
"""

from dataclasses import dataclass, field
from statistics import median

from django.db.models import Count, DurationField, ExpressionWrapper, F, Q, Window
from django.db.models.functions import RowNumber

from catalog.models import ListEntry, ReadingList
from teams.models import FollowedList, Membership, Team

from .models import Bookmark
from .querysets import BookmarkQuerySet

# Names shown per step to owners; the rest are counted.
NAMES_PER_STEP = 5
SECONDS_PER_DAY = 86_400
# Steps a session planned from a progress line takes.
SESSION_STEPS = 3


@dataclass
class Step:
    source_id: int
    title: str
    url: str
    finished: int = 0
    reading: int = 0
    median_days: float | None = None
    reader_names: list[str] = field(default_factory=list)

    @property
    def more_readers(self) -> int:
        return max(self.reading - len(self.reader_names), 0)


@dataclass
class ListProgress:
    followed: FollowedList
    steps: list[Step]
    members: int

    @property
    def reading_list(self) -> ReadingList:
        return self.followed.reading_list

    @property
    def stall(self) -> Step | None:
        """The first step most members have not finished."""
        for step in self.steps:
            if step.finished * 2 <= self.members:
                return step
        return None

    @property
    def reads(self) -> int:
        return sum(step.finished for step in self.steps)

    @property
    def possible(self) -> int:
        return self.members * len(self.steps)

    @property
    def percent(self) -> int:
        return round(100 * self.reads / self.possible) if self.possible else 0

    @property
    def next_source_ids(self) -> list[int]:
        """The next steps most members have not finished, for a session to take."""
        unread = [step for step in self.steps if step.finished * 2 <= self.members]
        return [step.source_id for step in unread[:SESSION_STEPS]]


def _steps_by_list(lists: list[FollowedList]) -> dict[int, list[Step]]:
    """Each followed list's sources in reading order, a source once (one query)."""
    entries = (
        ListEntry.objects.filter(section__reading_list__in=[f.reading_list_id for f in lists])
        .select_related("source", "section")
        .order_by("section__reading_list", "section__position", "position")
    )
    steps: dict[int, list[Step]] = {f.reading_list_id: [] for f in lists}
    seen: set[tuple[int, int]] = set()
    for entry in entries:
        list_id = entry.section.reading_list_id
        if (list_id, entry.source_id) in seen:
            continue
        seen.add((list_id, entry.source_id))
        steps[list_id].append(
            Step(entry.source_id, entry.display_title, entry.source.get_absolute_url())
        )
    return steps


def _members_bookmarks(team: Team, source_ids: set[int]) -> BookmarkQuerySet:
    # The members' ids as a subquery: joining through the user table instead would read one
    # user row per bookmark counted.
    members = Membership.objects.filter(team=team).values("user_id")
    return Bookmark.objects.filter(user_id__in=members, source_id__in=sorted(source_ids))


def _fill_counts(team: Team, steps: list[Step], source_ids: set[int]) -> None:
    counts = {
        row["source_id"]: row
        for row in _members_bookmarks(team, source_ids)
        .values("source_id")
        .annotate(
            finished=Count("pk", filter=Q(status=Bookmark.Status.READ)),
            reading=Count("pk", filter=Q(status=Bookmark.Status.READING)),
        )
        .order_by()
    }
    for step in steps:
        row = counts.get(step.source_id)
        if row:
            step.finished, step.reading = row["finished"], row["reading"]


def _fill_medians(team: Team, steps: list[Step], source_ids: set[int]) -> None:
    """The median days from saved to finished per step. The database ranks each step's finished
    bookmarks by duration and sends the middle one or two, so what crosses the wire is two rows
    a step, not one per member who finished it."""
    taken = ExpressionWrapper(F("finished_at") - F("saved_at"), output_field=DurationField())
    middle = (
        _members_bookmarks(team, source_ids)
        .filter(status=Bookmark.Status.READ, finished_at__isnull=False)
        .annotate(
            taken=taken,
            rank=Window(RowNumber(), partition_by=F("source_id"), order_by=taken.asc()),
            of=Window(Count("pk"), partition_by=F("source_id")),
        )
        # Integer division: rows (n+1)/2 and (n+2)/2 are the middle one (n odd) or two (n even).
        .filter(Q(rank=(F("of") + 1) / 2) | Q(rank=(F("of") + 2) / 2))
        .order_by()  # not the bookmarks' default order: a sort of every row for nothing
        .values_list("source_id", "taken")
    )
    durations: dict[int, list[float]] = {}
    for source_id, taken_time in middle:
        days = max(taken_time.total_seconds(), 0) / SECONDS_PER_DAY
        durations.setdefault(source_id, []).append(days)
    for step in steps:
        if step.source_id in durations:
            step.median_days = round(median(durations[step.source_id]), 1)


def _fill_names(team: Team, steps: list[Step], source_ids: set[int]) -> None:
    """The first NAMES_PER_STEP readers of each step by name, ranked by the database so that a
    step a thousand members are reading sends five names, not a thousand."""
    order = [F("user__display_name").asc(), F("user__email").asc(), F("pk").asc()]
    readers = (
        _members_bookmarks(team, source_ids)
        .filter(status=Bookmark.Status.READING)
        .annotate(rank=Window(RowNumber(), partition_by=F("source_id"), order_by=order))
        .filter(rank__lte=NAMES_PER_STEP)
        .select_related("user")
        .order_by("source_id", "rank")
    )
    names: dict[int, list[str]] = {}
    for bookmark in readers:
        names.setdefault(bookmark.source_id, []).append(bookmark.user.public_name)
    for step in steps:
        step.reader_names = names.get(step.source_id, [])


def fill_counts(team: Team, steps: list[Step]) -> None:
    """How many members finished and are reading each step (one query)."""
    source_ids = {step.source_id for step in steps}
    if source_ids:
        _fill_counts(team, steps, source_ids)


def fill_step_details(team: Team, steps: list[Step], *, with_names: bool) -> None:
    """The median days to finish each step, and who is reading it `with_names` (owners)."""
    source_ids = {step.source_id for step in steps}
    if source_ids:
        _fill_medians(team, steps, source_ids)
        if with_names:
            _fill_names(team, steps, source_ids)


def team_progress(
    team: Team, *, with_names: bool, details: bool = True, followed: int | None = None
) -> list[ListProgress]:
    """Progress along every list the team follows (or the one `followed` row); names of readers
    only `with_names` (owners), members see the counts. Without `details`, the counts alone:
    what the team page's one line per list shows."""
    rows = team.followed_lists.select_related("reading_list")
    if followed is not None:
        rows = rows.filter(pk=followed)
    lists = list(rows)
    if not lists:
        return []
    steps_by_list = _steps_by_list(lists)
    all_steps = [step for steps in steps_by_list.values() for step in steps]
    source_ids = {step.source_id for step in all_steps}
    members = team.memberships.count()
    if source_ids:
        _fill_counts(team, all_steps, source_ids)
        if details:
            fill_step_details(team, all_steps, with_names=with_names)
    return [ListProgress(f, steps_by_list[f.reading_list_id], members) for f in lists]
