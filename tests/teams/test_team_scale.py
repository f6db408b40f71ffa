"""The team's page costs the same for a handful of members and for a crowd; the full member
list lives on its own paginated page."""

from collections.abc import Callable

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from pytest_django import DjangoAssertNumQueries

from accounts.models import User
from library.models import Bookmark
from library.reading import team_recent_activity
from teams.members import MEMBERS_PAGE_SIZE
from teams.models import Membership, Team
from tests.factories import SourceFactory, UserFactory
from tests.hints import Tiers

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("render_every_time")]


@pytest.fixture
def grow_team(team: Team, tiers: Tiers) -> Callable[[int], list[User]]:
    sources = SourceFactory.create_batch(3, tier=tiers["core"])

    def grow(count: int) -> list[User]:
        readers = UserFactory.create_batch(count)
        Membership.objects.bulk_create([Membership(team=team, user=r) for r in readers])
        Bookmark.objects.bulk_create(
            [Bookmark(user=r, source=s, status="read") for r in readers for s in sources]
        )
        return readers

    return grow


def queries_and_html(client: Client, url: str) -> tuple[int, str]:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(ctx.captured_queries), response.content.decode()


@pytest.mark.parametrize("url", ["/teams/inference/", "/teams/inference/members/"])
def test_team_pages_run_the_same_queries_for_5_and_80_members(
    client: Client,
    owner: User,
    grow_team: Callable[[int], list[User]],
    url: str,
    django_assert_max_num_queries: DjangoAssertNumQueries,
) -> None:
    client.force_login(owner)
    grow_team(4)
    baseline, _ = queries_and_html(client, url)
    grow_team(75)
    with django_assert_max_num_queries(baseline):
        assert client.get(url).status_code == 200


def test_team_page_summarises_members_instead_of_listing_them(
    client: Client, owner: User, grow_team: Callable[[int], list[User]]
) -> None:
    readers = grow_team(60)
    client.force_login(owner)
    _, html = queries_and_html(client, "/teams/inference/")
    assert "61 members, 1 of them owner." in html
    assert "See all members and manage them" in html
    listed = [r for r in readers if f">{r.public_name} <" in html or f"{r.public_name}," in html]
    assert len(listed) <= 5
    assert "Remove " not in html


def test_most_active_members_are_those_behind_the_latest_changes(
    client: Client, owner: User, team: Team, tiers: Tiers
) -> None:
    busy, quiet = UserFactory(display_name="Busy Bee"), UserFactory(display_name="Quiet One")
    Membership.objects.create(team=team, user=busy)
    Membership.objects.create(team=team, user=quiet)
    sources = SourceFactory.create_batch(4, tier=tiers["core"])
    Bookmark.objects.create(user=quiet, source=sources[0])
    for source in sources[1:]:
        Bookmark.objects.create(user=busy, source=source)
    client.force_login(owner)
    _, html = queries_and_html(client, "/teams/inference/")
    assert "Most active lately: Busy Bee" in html
    assert html.index("Busy Bee") < html.index("Quiet One")
    assert "(3 changes)" in html and "(1 change)" in html


def test_members_page_is_paginated_with_owner_actions(
    client: Client, owner: User, grow_team: Callable[[int], list[User]]
) -> None:
    grow_team(MEMBERS_PAGE_SIZE + 10)
    client.force_login(owner)
    _, first = queries_and_html(client, "/teams/inference/members/")
    assert first.count("<li>") >= MEMBERS_PAGE_SIZE
    assert "Page 1 of 2" in first and 'rel="next"' in first
    assert first.count(">Remove ") == MEMBERS_PAGE_SIZE - 1  # not the owner themself
    _, second = queries_and_html(client, "/teams/inference/members/?page=2")
    assert second.count(">Remove ") == 11  # 60 members and the owner: 61 in all
    _, bad = queries_and_html(client, "/teams/inference/members/?page=zzz")
    assert "Page 1 of 2" in bad


def test_member_sees_the_list_without_actions(
    client: Client, grow_team: Callable[[int], list[User]], member: User
) -> None:
    grow_team(3)
    client.force_login(member)
    _, html = queries_and_html(client, "/teams/inference/members/")
    assert "member@example.com" not in html  # public names, never emails
    assert "Owner" in html and ">Remove " not in html and "Make " not in html


def test_members_page_is_404_outside_the_team(
    client: Client, team: Team, other_reader: User
) -> None:
    client.force_login(other_reader)
    assert client.get("/teams/inference/members/").status_code == 404
    client.logout()
    assert client.get("/teams/inference/members/").status_code == 302


def test_owner_action_returns_to_the_members_page(
    client: Client, owner: User, member: User
) -> None:
    client.force_login(owner)
    response = client.post(f"/teams/inference/members/{member.pk}/promote/", follow=True)
    assert response.redirect_chain[-1][0] == "/teams/inference/members/"
    assert "member is now an owner." in response.content.decode()


@pytest.mark.postgres
def test_recent_activity_walks_the_updated_index(team: Team, tiers: Tiers) -> None:
    """With statistics like a real team's, PostgreSQL reads the newest bookmarks through the
    index and stops at the tenth, instead of sorting every member's bookmarks."""
    sources = SourceFactory.create_batch(40, tier=tiers["core"])
    readers = UserFactory.create_batch(120)
    Membership.objects.bulk_create([Membership(team=team, user=r) for r in readers[:60]])
    Bookmark.objects.bulk_create([Bookmark(user=r, source=s) for r in readers for s in sources])
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE library_bookmark; ANALYZE teams_membership")
    queryset = Bookmark.objects.filter(user__memberships__team=team).order_by("-updated", "-pk")
    plan = queryset[:10].explain()
    assert "bookmark_updated_desc" in plan and "Sort" not in plan
    assert len(team_recent_activity(team)) == 10
