"""Team progress along the reading lists the team follows: counts for everyone, names for
owners, where the team stalls, the median days to finish, and a constant number of queries."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from catalog.models import ReadingList, Source
from library.models import Bookmark
from library.team_progress import team_progress
from teams.models import FollowedList, Membership, Team
from tests.factories import ListEntryFactory, ListSectionFactory, ReadingListFactory, SourceFactory

TEAM = "/teams/inference/"


@pytest.fixture
def path(db: None) -> tuple[ReadingList, list[Source]]:
    reading_list = ReadingListFactory(slug="serving", title="Serving path")
    section = ListSectionFactory(reading_list=reading_list, position=1)
    steps = [
        ListEntryFactory(section=section, position=n, source=SourceFactory(title=title)).source
        for n, title in enumerate(["Roofline", "FlashAttention", "PagedAttention"], start=1)
    ]
    return reading_list, steps


def add_readers(team: Team, count: int, steps: list[Source]) -> None:
    """`count` members: all finished the first step in 2 days, a third are reading the second."""
    users = User.objects.bulk_create(
        User(email=f"reader{n}@example.com", display_name=f"Reader {n:04}") for n in range(count)
    )
    Membership.objects.bulk_create(Membership(team=team, user=user) for user in users)
    saved = timezone.now() - timedelta(days=10)
    rows = [
        Bookmark(
            user=user,
            source=steps[0],
            status="read",
            saved_at=saved,
            finished_at=saved + timedelta(days=2),
        )
        for user in users
    ]
    rows += [Bookmark(user=user, source=steps[1], status="reading") for user in users[::3]]
    Bookmark.objects.bulk_create(rows)


def progress_section(page: str) -> str:
    return page.split('id="progress"', 1)[1].split("</section>", 1)[0]


def test_an_owner_follows_a_list_and_members_see_where_the_team_stalls(
    client: Client, team: Team, owner: User, member: User, path: tuple[ReadingList, list[Source]]
) -> None:
    reading_list, steps = path
    add_readers(team, 4, steps)
    client.force_login(owner)
    response = client.post(TEAM + "progress/", {"reading_list": reading_list.pk})
    assert response["Location"] == TEAM + "#progress"
    followed = FollowedList.objects.get()
    table = f"/library/teams/inference/progress/{followed.pk}/"
    assert table in progress_section(client.get(TEAM).text)
    assert "<td>2: Reader 0000, Reader 0003</td>" in client.get(table).text

    client.force_login(member)
    line = progress_section(client.get(TEAM).text)
    assert "Serving path" in line
    assert "Members stall at" in line and "FlashAttention</a>" in line
    assert "<table" not in line  # one line per list: the table has its own page
    page = client.get(table).text
    assert "Most members have not finished <strong>FlashAttention</strong> yet" in page
    assert "<td>4 of 6</td>" in page  # four of the six members finished Roofline
    assert "<td>2.0</td>" in page  # median days from saved to finished
    assert "Reader 0000" not in page  # members see counts, not names
    assert "<td>2</td>" in page
    assert "Stop following" not in line and "Follow this list" not in line


def test_the_step_table_is_paged_and_private_to_the_team(
    client: Client, team: Team, member: User, other_reader: User
) -> None:
    reading_list = ReadingListFactory(slug="long", title="Long path")
    section = ListSectionFactory(reading_list=reading_list, position=1)
    for n in range(60):
        ListEntryFactory(section=section, position=n, source=SourceFactory(title=f"Step {n:03}"))
    followed = FollowedList.objects.create(team=team, reading_list=reading_list)
    table = f"/library/teams/inference/progress/{followed.pk}/"
    client.force_login(member)
    first = client.get(table).text
    assert "Step 000" in first and "Step 024" in first and "Step 025" not in first
    third = client.get(table + "?page=3").text
    assert "Step 050" in third and "Step 059" in third and "Step 049" not in third
    assert 'rel="prev" href="?page=2"' in third
    assert client.get(f"/library/teams/inference/progress/{followed.pk + 1}/").status_code == 404
    client.force_login(other_reader)
    assert client.get(table).status_code == 404


def test_members_cannot_choose_lists(
    client: Client, team: Team, member: User, path: tuple[ReadingList, list[Source]]
) -> None:
    client.force_login(member)
    assert client.post(TEAM + "progress/", {"reading_list": path[0].pk}).status_code == 404
    assert not FollowedList.objects.exists()


def test_an_owner_stops_following(
    client: Client, team: Team, owner: User, path: tuple[ReadingList, list[Source]]
) -> None:
    followed = FollowedList.objects.create(team=team, reading_list=path[0])
    client.force_login(owner)
    client.post(f"{TEAM}progress/{followed.pk}/remove/")
    assert not FollowedList.objects.exists()


def test_an_unknown_list_is_refused_clearly(client: Client, team: Team, owner: User) -> None:
    client.force_login(owner)
    response = client.post(TEAM + "progress/", {"reading_list": "9999"}, follow=True)
    assert "Choose one of the reading lists the team does not follow yet." in response.text


def page_queries(client: Client, user: User) -> int:
    client.force_login(user)
    # Warms what the layout keeps per reader (the header's unread count), as every later visit
    # finds it: the two sizes are then compared on the team page's own reads.
    client.get(TEAM)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(TEAM).status_code == 200
    return len(queries)


@pytest.mark.django_db
def test_the_team_page_costs_the_same_queries_at_10_and_1000_members(
    client: Client, team: Team, owner: User, path: tuple[ReadingList, list[Source]]
) -> None:
    FollowedList.objects.create(team=team, reading_list=path[0])
    add_readers(team, 10, path[1])
    small = page_queries(client, owner)
    add_readers_more = 990
    users = User.objects.bulk_create(
        User(email=f"more{n}@example.com") for n in range(add_readers_more)
    )
    Membership.objects.bulk_create(Membership(team=team, user=user) for user in users)
    Bookmark.objects.bulk_create(
        Bookmark(user=user, source=path[1][1], status="reading") for user in users
    )
    assert team.memberships.count() == 1001
    assert page_queries(client, owner) == small


def test_medians_and_names_come_from_the_middle_and_the_first_five(
    team: Team, owner: User, path: tuple[ReadingList, list[Source]]
) -> None:
    """The database sends the middle bookmark(s) and five names a step; the page shows the same
    median and names as reading every row would."""
    reading_list, steps = path
    FollowedList.objects.create(team=team, reading_list=reading_list)
    users = User.objects.bulk_create(
        User(email=f"m{n}@example.com", display_name=f"Member {n}") for n in range(8)
    )
    Membership.objects.bulk_create(Membership(team=team, user=user) for user in users)
    saved = timezone.now() - timedelta(days=30)
    # Roofline: 1, 2, 4 and 10 days (median 3.0); FlashAttention: 1, 5, 6 days (median 5.0).
    rows = [
        Bookmark(user=user, source=steps[0], status="read", saved_at=saved, finished_at=saved + d)
        for user, d in zip(users[:4], [timedelta(days=n) for n in (10, 1, 4, 2)], strict=True)
    ]
    rows += [
        Bookmark(user=user, source=steps[1], status="read", saved_at=saved, finished_at=saved + d)
        for user, d in zip(users[4:7], [timedelta(days=n) for n in (6, 1, 5)], strict=True)
    ]
    rows += [Bookmark(user=user, source=steps[2], status="reading") for user in reversed(users)]
    Bookmark.objects.bulk_create(rows)
    (progress,) = team_progress(team, with_names=True)
    roofline, flash, paged = progress.steps
    assert (roofline.median_days, flash.median_days, paged.median_days) == (3.0, 5.0, None)
    assert paged.reader_names == [f"Member {n}" for n in range(5)]
    assert (paged.reading, paged.more_readers) == (8, 3)
