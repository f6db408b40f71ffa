"""Two teams for bench_team_size: a small one and a large one with many sessions, alike in
everything else (the lists they follow, how much each member reads and shares), so that timing
their pages side by side measures what grows with a team's size.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone

from bench.team_data import spread_updates

if TYPE_CHECKING:
    from teams.models import Team

BATCH = 5000
# The lists both teams follow, so the page shows progress along them with names for the owner.
FOLLOWED = ("bench-list-1", "bench-list-2")
STATUSES = ["to_read", "to_read", "reading", "read", "read"]


@dataclass(frozen=True)
class Shape:
    slug: str
    members: int
    sessions: int


def build_team(shape: Shape, source_ids: list[int], rng: random.Random) -> None:
    """`shape.members` readers (the first the owner) with 40 to 120 saved sources each, ten
    notes each (half shared with the team), and `shape.sessions` weekly sessions, half past."""
    from catalog.models import ReadingList
    from library.models import Bookmark
    from teams.models import FollowedList, Membership, Session, Team

    users = get_user_model()
    team = Team.objects.create(name=shape.slug.replace("-", " ").title(), slug=shape.slug)
    people = users.objects.bulk_create(
        [
            users(email=f"{shape.slug}-{n}@example.com", display_name=f"Reader {n:04}")
            for n in range(shape.members)
        ],
        batch_size=BATCH,
    )
    Membership.objects.bulk_create(
        [
            Membership(team=team, user=person, role="owner" if n == 0 else "member")
            for n, person in enumerate(people)
        ],
        batch_size=BATCH,
    )
    now = timezone.now()
    bookmarks = []
    for person in people:
        for source_id in rng.sample(source_ids, min(rng.randint(40, 120), len(source_ids))):
            saved = now - timedelta(minutes=rng.randint(60 * 24, 60 * 24 * 365))
            status = rng.choice(STATUSES)
            taken = timedelta(hours=rng.randint(1, 24 * 60))
            finished = saved + taken if status == "read" else None
            bookmarks.append(
                Bookmark(
                    user=person,
                    source_id=source_id,
                    status=status,
                    saved_at=saved,
                    finished_at=finished,
                )
            )
    Bookmark.objects.bulk_create(bookmarks, batch_size=BATCH)
    _notes(team, people, source_ids, rng)
    for n in range(shape.sessions):
        weeks = n - shape.sessions // 2
        session = Session.objects.create(
            team=team, title=f"Session {n}", starts_at=now + timedelta(weeks=weeks, hours=1)
        )
        session.sources.add(*rng.sample(source_ids, 2))
    for slug in FOLLOWED:
        FollowedList.objects.create(team=team, reading_list=ReadingList.objects.get(slug=slug))


def _notes(team: Team, people: list, source_ids: list[int], rng: random.Random) -> None:
    from notes.models import Note

    now = timezone.now()
    notes = []
    for person in people:
        for _ in range(10):
            shared = rng.random() < 0.5
            body = f"A note by {person.display_name} on why this source matters."
            notes.append(
                Note(
                    user=person,
                    source_id=rng.choice(source_ids),
                    body=body,
                    body_html=f"<p>{body}</p>",
                    visibility="team" if shared else "private",
                    team=team if shared else None,
                    created=now - timedelta(minutes=rng.randint(0, 60 * 24 * 365)),
                )
            )
    Note.objects.bulk_create(notes, batch_size=BATCH)


def settle() -> None:
    """Statistics and visibility as on a database that has been running a while."""
    spread_updates()
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
