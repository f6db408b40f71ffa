"""Who may do what to a team: a matrix of every owner action against every kind of visitor,
and the confirmation page each destructive action asks on before it happens."""

from typing import TypedDict

import pytest
from django.core import mail
from django.test import Client
from pytest_django import DjangoCaptureOnCommitCallbacks

from accounts.models import User
from catalog.models import ReadingList
from notes.models import Note
from teams import services
from teams.models import (
    FollowedList,
    Invitation,
    JoinLink,
    Membership,
    Session,
    Team,
    TeamDomain,
)
from tests.factories import ReadingListFactory, SourceFactory, UserFactory
from tests.teams.conftest import proved_domain

TEAM = "/teams/inference/"


class World(TypedDict):
    colleague: User
    link: JoinLink
    domain: TeamDomain
    session: Session
    followed: FollowedList
    unfollowed: ReadingList


@pytest.fixture
def world(team: Team, owner: User, member: User) -> World:
    """A team with something for every owner action to change."""
    colleague = UserFactory(email="colleague@example.com")
    Membership.objects.create(team=team, user=colleague)
    link = services.create_join_link(team=team, by=owner)
    domain = proved_domain(team, "inference.example")
    session = Session.objects.create(team=team, title="Week 1", starts_at="2030-01-01T10:00Z")
    followed = FollowedList.objects.create(team=team, reading_list=ReadingListFactory())
    return {
        "colleague": colleague,
        "link": link,
        "domain": domain,
        "session": session,
        "followed": followed,
        "unfollowed": ReadingListFactory(),
    }


def owner_actions(world: World) -> list[tuple[str, dict[str, str], bool]]:
    """(path, data to POST, whether it has a page of its own to GET): forms on the team page
    have none; the actions that cannot be undone ask on a confirmation page first."""
    colleague = world["colleague"].pk
    return [
        ("invite/", {"email": "new@example.com"}, False),
        ("settings/", {"description": "Taken over."}, False),
        ("domains/", {"domain": "elsewhere.example"}, False),
        (f"domains/{world['domain'].pk}/remove/", {}, True),
        ("links/", {}, False),
        (f"links/{world['link'].pk}/revoke/", {}, True),
        (f"members/{colleague}/remove/", {}, True),
        (f"members/{colleague}/promote/", {}, True),
        ("calendar/rotate/", {}, True),
        ("progress/", {"reading_list": str(world["unfollowed"].pk)}, False),
        (f"progress/{world['followed'].pk}/remove/", {}, False),
        ("sessions/new/", {"title": "Taken over", "starts_at": "2030-02-01T10:00"}, True),
        (f"sessions/{world['session'].pk}/edit/", {"title": "Taken over"}, True),
        ("delete/", {}, True),
    ]


def snapshot(team: Team) -> dict:
    """Everything an owner action could change, to compare before and after."""
    team.refresh_from_db()
    return {
        "team": (team.name, team.description, team.calendar_token),
        "members": sorted(Membership.objects.filter(team=team).values_list("user_id", "role")),
        "links": sorted(JoinLink.objects.filter(team=team).values_list("pk", "revoked")),
        "domains": sorted(TeamDomain.objects.filter(team=team).values_list("domain", "revoked_at")),
        "invitations": Invitation.objects.filter(team=team).count(),
        "sessions": sorted(Session.objects.filter(team=team).values_list("pk", "title")),
        "followed": sorted(FollowedList.objects.filter(team=team).values_list("reading_list_id")),
    }


def log_in_as(client: Client, role: str, team: Team, member: User) -> None:
    if role == "member":
        client.force_login(member)
    elif role == "non-member":
        client.force_login(UserFactory(email="stranger@example.com"))
    elif role == "maintainer":
        client.force_login(UserFactory(email="maintainer@example.com", is_staff=True))


@pytest.mark.parametrize("role", ["member", "non-member", "anonymous", "maintainer"])
def test_only_owners_act_on_a_team(
    client: Client, team: Team, member: User, world: World, role: str
) -> None:
    log_in_as(client, role, team, member)
    before = snapshot(team)
    for path, data, has_page in owner_actions(world):
        for method in ("get", "post") if has_page else ("post",):
            response = getattr(client, method)(TEAM + path, data)
            # Visitors who are not signed in are answered as non-members: the team's existence
            # is not disclosed, and they are not sent to sign in for an action they cannot take.
            assert response.status_code in {403, 404}, (method, path, response.status_code)
    assert snapshot(team) == before
    assert mail.outbox == []


OWNER_CONTROLS = [
    "Send invitation",
    "Create a join link",
    "Revoke…",
    "Give the calendar a new secret address",
    "Add the domain",
    "Save settings",
    "Delete Inference…",
]
# The member list lives on its own page as a team grows; the owner's member actions with it.
MEMBER_PAGE_CONTROLS = ["Remove colleague", "an owner…"]


def test_members_see_no_owner_control(
    client: Client, team: Team, member: User, world: World
) -> None:
    client.force_login(member)
    page = client.get(TEAM).text
    for control in OWNER_CONTROLS:
        assert control not in page, control
    assert world["link"].token not in page
    assert "Leave Inference…" in page
    members = client.get(TEAM + "members/").text
    for control in MEMBER_PAGE_CONTROLS:
        assert control not in members, control


def test_owners_see_every_control(client: Client, team: Team, owner: User, world: World) -> None:
    world["colleague"].display_name = "colleague"
    world["colleague"].save()
    client.force_login(owner)
    page = client.get(TEAM).text
    for control in OWNER_CONTROLS:
        assert control in page, control
    members = client.get(TEAM + "members/").text
    for control in MEMBER_PAGE_CONTROLS:
        assert control in members, control


def test_a_sole_owner_is_not_offered_to_leave(
    client: Client, team: Team, owner: User, member: User
) -> None:
    client.force_login(owner)
    assert "Leave Inference" not in client.get(TEAM).text
    page = client.get(TEAM + "leave/")
    assert page.status_code == 409
    assert "you cannot leave" in page.text
    assert 'type="submit"' not in page.text.split("<main", 1)[-1].split("</main>")[0]


def test_a_revoked_join_link_shows_no_address(client: Client, team: Team, owner: User) -> None:
    link = services.create_join_link(team=team, by=owner)
    services.revoke_join_link(link=link, by=owner)
    client.force_login(owner)
    page = client.get(TEAM).text
    assert link.token not in page
    assert "no longer usable: This join link was revoked" in page


@pytest.mark.parametrize(
    ("path", "question"),
    [
        ("members/{colleague}/remove/", "Remove colleague from Inference?"),
        ("members/{colleague}/promote/", "Make colleague an owner of Inference?"),
        ("links/{link}/revoke/", "Revoke this join link?"),
        ("domains/{domain}/remove/", "Stop readers at inference.example joining by themselves?"),
        ("calendar/rotate/", "Give the calendar of Inference a new secret address?"),
        ("delete/", "Delete Inference?"),
    ],
)
def test_each_destructive_action_asks_first_and_changes_nothing(
    client: Client, team: Team, owner: User, world: World, path: str, question: str
) -> None:
    world["colleague"].display_name = "colleague"
    world["colleague"].save()
    url = TEAM + path.format(
        colleague=world["colleague"].pk, link=world["link"].pk, domain=world["domain"].pk
    )
    client.force_login(owner)
    before = snapshot(team)
    page = client.get(url)
    assert page.status_code == 200
    assert f"<h1>{question}</h1>" in page.text
    assert '<form method="post" class="confirm-form">' in page.text
    assert "Cancel and go back to Inference" in page.text
    assert snapshot(team) == before


def test_a_member_confirms_leaving(client: Client, team: Team, member: User) -> None:
    client.force_login(member)
    page = client.get(TEAM + "leave/")
    assert "<h1>Leave Inference?</h1>" in page.text
    assert team.memberships.filter(user=member).exists()
    response = client.post(TEAM + "leave/")
    assert response["Location"] == "/teams/"
    assert not team.memberships.filter(user=member).exists()


def test_an_owner_deletes_a_team_notes_stay_private_and_members_are_told(
    client: Client,
    team: Team,
    owner: User,
    member: User,
    world: World,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    source = SourceFactory()
    shared = Note.objects.create(
        user=member, source=source, body="Tiling matters.", visibility="team", team=team
    )
    client.force_login(owner)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(TEAM + "delete/")
    assert response["Location"] == "/teams/"
    assert not Team.objects.filter(slug="inference").exists()
    assert not Session.objects.filter(title="Week 1").exists()
    assert not JoinLink.objects.filter(pk=world["link"].pk).exists()
    shared.refresh_from_db()
    assert (shared.visibility, shared.team_id) == ("private", None)
    assert sorted(message.to[0] for message in mail.outbox) == [
        "colleague@example.com",
        "member@example.com",
    ]
    told = mail.outbox[0]
    assert told.subject == "Inference was deleted"
    assert "now private" in told.body
    assert "Inference is deleted" in client.get("/teams/").text
