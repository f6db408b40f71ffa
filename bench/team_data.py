"""Synthetic team-scale data for bench_teams: readers in teams, their bookmarks, notes, reading
sessions and follows, at a size chosen by `scale` (1.0 is 5,000 readers in 100 teams).

Two readers are measured on every page: the median reader (a median team, 80 saved sources) and
the worst (the largest team, 198 saved, an owner). A near-empty database holds the same two
readers with the same team slugs and a handful of rows, so every URL exists in both.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.utils import timezone

if TYPE_CHECKING:
    from accounts.models import User
    from teams.models import Team

# Where the builders report progress: a command's stdout.write.
Log = Callable[[str], None]

FULL = {"readers": 5000, "teams": 100, "bookmarks": 80, "notes": 10, "sessions": 5, "follows": 3}
SMALLEST_TEAM, LARGEST_TEAM = 24, 333
MEDIAN_SAVED, WORST_SAVED = 80, 198
BATCH = 5000
PATH_LIST, PATH_STEPS = "bench-start", 12


@dataclass(frozen=True)
class Measured:
    """The readers and teams every page is measured for, identical in both databases."""

    median_email: str = "bench-median@example.com"
    worst_email: str = "bench-worst@example.com"
    median_team: str = "bench-median-team"
    largest_team: str = "bench-largest-team"


MEASURED = Measured()


def team_sizes(readers: int, teams: int) -> list[int]:
    """Sizes from SMALLEST to LARGEST (scaled to fit `readers`), the largest last."""
    low = max(3, round(SMALLEST_TEAM * readers / FULL["readers"]))
    high = max(low + 1, round(LARGEST_TEAM * readers / FULL["readers"]))
    if teams == 1:
        return [high]
    step = (high - low) / (teams - 1)
    return [round(low + step * n) for n in range(teams)]


def build_big(scale: float, source_ids: list[int], log: Log) -> None:
    """The team-scale database: every reader in a team, bookmarks, notes, sessions, follows."""
    from library.models import Bookmark
    from teams.models import Membership, Team

    rng = random.Random(20261202)
    n_readers = max(12, round(FULL["readers"] * scale))
    n_teams = max(3, round(FULL["teams"] * scale))  # a median team besides the largest
    users = get_user_model()
    people = users.objects.bulk_create(
        [
            users(email=f"bench{n}@example.com", display_name=f"Reader {n}")
            for n in range(n_readers)
        ],
        batch_size=BATCH,
    )
    sizes = team_sizes(n_readers, n_teams)
    median_index = n_teams // 2
    teams = Team.objects.bulk_create(
        [
            Team(
                name=f"Bench team {n}",
                slug=MEASURED.largest_team
                if n == n_teams - 1
                else MEASURED.median_team
                if n == median_index
                else f"bench-team-{n}",
            )
            for n in range(n_teams)
        ]
    )
    memberships, cursor = [], 0
    for team, size in zip(teams, sizes, strict=True):
        for offset in range(size):
            person = people[(cursor + offset) % n_readers]
            role = Membership.Role.OWNER if offset == 0 else Membership.Role.MEMBER
            memberships.append(Membership(team=team, user=person, role=role))
        cursor += size
    Membership.objects.bulk_create(memberships, batch_size=BATCH, ignore_conflicts=True)
    log(f"{n_readers:,} readers in {n_teams} teams of {sizes[0]}-{sizes[-1]}")

    worst = people[sum(sizes[:-1]) % n_readers]  # the owner of the largest team
    median = people[(sum(sizes[:median_index]) + 1) % n_readers]  # a median team's member
    users.objects.filter(pk=worst.pk).update(email=MEASURED.worst_email)
    users.objects.filter(pk=median.pk).update(email=MEASURED.median_email)
    saved = {worst.pk: WORST_SAVED, median.pk: MEDIAN_SAVED}
    _build_bookmarks(rng, people, source_ids, saved)
    log(f"{Bookmark.objects.count():,} bookmarks")
    team_of = {m.user_id: m.team_id for m in memberships}
    _build_notes_sessions_follows(rng, people, teams, team_of, source_ids, log)


def _build_bookmarks(
    rng: random.Random, people: list[User], source_ids: list[int], saved: dict[int, int]
) -> None:
    """40 to 120 saved sources per reader (`saved` fixes some readers' counts), over a year."""
    from library.models import Bookmark

    now = timezone.now()
    statuses = ["to_read", "to_read", "reading", "read", "read"]
    bookmarks = []
    for person in people:
        count = saved.get(person.pk) or rng.randint(40, 120)
        for source_id in rng.sample(source_ids, min(count, len(source_ids))):
            moment = now - timedelta(minutes=rng.randint(0, 60 * 24 * 365))
            bookmarks.append(
                Bookmark(
                    user=person, source_id=source_id, status=rng.choice(statuses), saved_at=moment
                )
            )
        if len(bookmarks) >= BATCH:
            Bookmark.objects.bulk_create(bookmarks)
            bookmarks = []
    Bookmark.objects.bulk_create(bookmarks)
    # auto_now stamped every row alike: spread "updated" as real changes would be.
    _spread_updates()


def _build_notes_sessions_follows(
    rng: random.Random,
    people: list[User],
    teams: list[Team],
    team_of: dict[int, int],
    source_ids: list[int],
    log: Log,
) -> None:
    from library.models import Follow
    from notes.models import Note
    from teams.models import Session

    now = timezone.now()
    notes = []
    for person in people:
        for _ in range(FULL["notes"]):
            shared = rng.random() < 0.5 and person.pk in team_of
            body = f"A note by reader {person.pk} on why this source matters."
            notes.append(
                Note(
                    user=person,
                    source_id=rng.choice(source_ids),
                    body=body,
                    body_html=f"<p>{body}</p>",
                    visibility="team" if shared else "private",
                    team_id=team_of.get(person.pk) if shared else None,
                    created=now - timedelta(minutes=rng.randint(0, 60 * 24 * 365)),
                )
            )
    Note.objects.bulk_create(notes, batch_size=BATCH)
    sessions = [
        Session(team=team, title=f"Session {n}", starts_at=now + timedelta(days=7 * n - 14))
        for team in teams
        for n in range(FULL["sessions"])
    ]
    Session.objects.bulk_create(sessions, batch_size=BATCH)
    kinds = [("topic", "topic-1"), ("tier", "core"), ("search", "q=attention")]
    Follow.objects.bulk_create(
        [Follow(user=p, kind=kind, target=target) for p in people for kind, target in kinds],
        batch_size=BATCH,
    )
    log(f"{len(notes):,} notes, {len(sessions):,} sessions, {len(people) * len(kinds):,} follows")


def _spread_updates() -> None:
    from django.db import connection

    spread_updates()
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def spread_updates() -> None:
    """Bookmarks changed at times spread over the hours after they were saved, as on a site in
    use (bulk_create stamped them all at once): one queryset update, which sends no signal."""
    from django.db.models import DurationField, ExpressionWrapper, F

    from library.models import Bookmark

    minutes = ExpressionWrapper(
        (F("id") % 1000) * timedelta(minutes=1), output_field=DurationField()
    )
    Bookmark.objects.update(updated=F("saved_at") + minutes)


def build_empty(source_ids: list[int]) -> None:
    """The near-empty database: one page's worth of everything and no more.

    The measured readers sit in two teams of three, each with 30 saved sources in every status,
    30 notes shared with their team and one follow of each kind: every page has something to
    show, so big ÷ empty measures what grows with the data beyond one page, not the cost of
    rendering a page that is full rather than blank.
    """
    from library.models import Bookmark, Follow
    from notes.models import Note
    from teams.models import Membership, Session, Team

    users = get_user_model()
    median = users.objects.create(email=MEASURED.median_email, display_name="Median")
    worst = users.objects.create(email=MEASURED.worst_email, display_name="Worst")
    others = [users.objects.create(email=f"bench{n}@example.com") for n in range(4)]
    team_of: dict[int, Team] = {}
    for slug, owner, mates in [
        (MEASURED.median_team, others[0], [median, others[1]]),
        (MEASURED.largest_team, worst, others[2:]),
    ]:
        team = Team.objects.create(name=slug.replace("-", " ").title(), slug=slug)
        Membership.objects.create(team=team, user=owner, role=Membership.Role.OWNER)
        for mate in mates:
            Membership.objects.create(team=team, user=mate)
        team_of |= {person.pk: team for person in [owner, *mates]}
    now = timezone.now()
    for team in {t.pk: t for t in team_of.values()}.values():
        for days in (-7, 7):
            Session.objects.create(team=team, title="A session", starts_at=now + timedelta(days))
    statuses = ["to_read", "reading", "read"]
    for person in [median, worst, *others]:
        Bookmark.objects.bulk_create(
            Bookmark(user=person, source_id=source_id, status=statuses[n % 3])
            for n, source_id in enumerate(source_ids[:30])
        )
        body = "A short note worth sharing."
        Note.objects.bulk_create(
            Note(
                user=person,
                source_id=source_id,
                body=body,
                body_html=f"<p>{body}</p>",
                visibility="team",
                team=team_of[person.pk],
            )
            for source_id in source_ids[:30]
        )
        kinds = [("topic", "topic-1"), ("tier", "core"), ("search", "q=attention")]
        Follow.objects.bulk_create(Follow(user=person, kind=k, target=t) for k, t in kinds)


def add_path_and_follows(source_ids: list[int]) -> None:
    """A Start-here path of PATH_STEPS sources, which both measured teams follow: home then
    shows how many teammates finished each step, and the team page the team's progress along
    it. The same sources in both databases; a schema that has them already is left alone."""
    from catalog.models import ListEntry, ListSection, ReadingList
    from teams.models import FollowedList, Team

    if ReadingList.objects.filter(slug=PATH_LIST).exists():
        return
    reading_list = ReadingList.objects.create(slug=PATH_LIST, title="Benchmark start", position=0)
    section = ListSection.objects.create(
        reading_list=reading_list, slug="start-here", title="Start here", position=1
    )
    ListEntry.objects.bulk_create(
        ListEntry(section=section, source_id=source_id, position=n)
        for n, source_id in enumerate(source_ids[:PATH_STEPS], start=1)
    )
    for slug in (MEASURED.median_team, MEASURED.largest_team):
        FollowedList.objects.create(team=Team.objects.get(slug=slug), reading_list=reading_list)
