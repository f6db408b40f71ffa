"""The team page offers only what a member may do, and counts in words that agree."""

import re

import pytest
from django.test import Client

from accounts.models import User
from teams import services
from teams.models import JoinLink, Team

pytestmark = pytest.mark.django_db

# Leaving is confirmed on its own page, which the team page links to.
LEAVE = re.compile(r'<a href="/teams/inference/leave/">Leave Inference…</a>')


def test_the_last_owner_is_not_offered_leave(
    client: Client, team: Team, owner: User, member: User
) -> None:
    client.force_login(owner)
    page = client.get("/teams/inference/").content.decode()
    assert not LEAVE.search(page)
    assert "You are the team's only owner, so you cannot leave it" in page


def test_an_owner_with_a_co_owner_may_leave(
    client: Client, team: Team, owner: User, member: User
) -> None:
    services.promote(team=team, by=owner, user=member)
    client.force_login(owner)
    page = client.get("/teams/inference/").content.decode()
    assert LEAVE.search(page)
    assert "only owner" not in page


def test_a_member_is_offered_leave(client: Client, team: Team, member: User) -> None:
    client.force_login(member)
    page = client.get("/teams/inference/").content.decode()
    assert LEAVE.search(page)


def test_join_link_uses_are_counted_in_agreeing_words(
    client: Client, team: Team, owner: User
) -> None:
    JoinLink.objects.create(team=team, created_by=owner, uses=1)
    JoinLink.objects.create(team=team, created_by=owner, uses=0, max_uses=1)
    JoinLink.objects.create(team=team, created_by=owner, uses=2, max_uses=5)
    client.force_login(owner)
    page = re.sub(r"\s+", " ", client.get("/teams/inference/").content.decode())
    assert re.search(r"used 1 time(?!s)", page)
    assert "used 0 of 1 time" in page and "used 0 of 1 times" not in page
    assert "used 2 of 5 times" in page
    assert "used 1 times" not in page
