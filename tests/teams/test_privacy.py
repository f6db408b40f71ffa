"""Every team URL answers 404 to anyone outside the team, and owner URLs to plain members."""

from typing import TypedDict

import pytest
from django.test import Client

from accounts.models import User
from teams import services
from teams.models import JoinLink, Session, Team
from tests.factories import UserFactory


class Setup(TypedDict):
    link: JoinLink
    session: Session
    b: User
    member: User


@pytest.fixture
def setup(team: Team, owner: User, member: User, other_team: Team) -> Setup:
    link = services.create_join_link(team=team, by=owner)
    session = Session.objects.create(team=team, title="Week 1", starts_at="2030-01-01T10:00Z")
    outsider_b = other_team.memberships.get().user
    return {"link": link, "session": session, "b": outsider_b, "member": member}


def team_urls(team: Team, setup: Setup) -> list[tuple[str, str]]:
    member = setup["member"]
    return [
        ("get", "/teams/inference/"),
        ("post", "/teams/inference/invite/"),
        ("post", "/teams/inference/settings/"),
        ("post", "/teams/inference/links/"),
        ("post", f"/teams/inference/links/{setup['link'].pk}/revoke/"),
        ("post", f"/teams/inference/members/{member.pk}/remove/"),
        ("post", f"/teams/inference/members/{member.pk}/promote/"),
        ("post", "/teams/inference/leave/"),
        ("post", "/teams/inference/calendar/rotate/"),
        ("get", "/teams/inference/sessions/new/"),
        ("get", f"/teams/inference/sessions/{setup['session'].pk}/"),
        ("get", f"/teams/inference/sessions/{setup['session'].pk}/edit/"),
        ("get", "/teams/inference/calendar/wrong-token.ics"),
    ]


@pytest.mark.parametrize("viewer", ["member of B", "nobody's member", "anonymous"])
def test_outsiders_get_404_everywhere(
    client: Client, team: Team, setup: Setup, viewer: str
) -> None:
    if viewer == "member of B":
        client.force_login(setup["b"])
    elif viewer == "nobody's member":
        client.force_login(UserFactory())
    # What any member may open; every other URL is an owner's (or a facilitator's) action.
    member_pages = {"/teams/inference/", "/teams/inference/leave/"}
    member_pages.add(f"/teams/inference/sessions/{setup['session'].pk}/")
    for method, url in team_urls(team, setup):
        response = getattr(client, method)(url)
        if viewer == "anonymous" and url in member_pages:
            # Sent to log in first, whatever the slug; after that, they get the 404 above.
            assert response.status_code == 302, url
            assert "/accounts/login/" in response.get("Location", ""), url
        else:
            assert response.status_code == 404, url
    assert team.memberships.count() == 2


def test_plain_members_get_404_on_owner_urls(client: Client, team: Team, setup: Setup) -> None:
    client.force_login(setup["member"])
    owner_only = [url for method, url in team_urls(team, setup) if method == "post"][:6]
    for url in owner_only:
        assert client.post(url).status_code == 404, url
    assert client.get("/teams/inference/sessions/new/").status_code == 404
    assert not setup["link"].__class__.objects.get(pk=setup["link"].pk).revoked


def test_member_of_a_sees_team_a(client: Client, team: Team, setup: Setup) -> None:
    client.force_login(setup["member"])
    assert client.get("/teams/inference/").status_code == 200
    assert client.get("/teams/kernels/").status_code == 404
