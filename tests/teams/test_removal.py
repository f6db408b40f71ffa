"""A removed member is told by mail, and their old link to the team says they are no longer a
member, still as a 404; whoever was never a member learns nothing from the same link."""

import pytest
from django.core import mail
from django.test import Client
from pytest_django import DjangoCaptureOnCommitCallbacks

from accounts.models import User
from teams.models import Team
from tests.factories import UserFactory

TEAM = "/teams/inference/"


@pytest.fixture
def removed(
    client: Client,
    team: Team,
    owner: User,
    member: User,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> User:
    client.force_login(owner)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/teams/inference/members/{member.pk}/remove/")
    assert response.status_code == 302
    return member


def test_the_removed_member_is_mailed(removed: User, owner: User) -> None:
    (told,) = [message for message in mail.outbox if message.to == [removed.email]]
    assert told.subject == "You are no longer a member of Inference"
    assert f"{owner.public_name}, an owner of the team Inference" in told.body
    assert "shared with the team are now private" in told.body


def test_their_old_link_says_they_are_no_longer_a_member_as_a_404(
    client: Client, removed: User
) -> None:
    client.force_login(removed)
    response = client.get(TEAM)
    assert response.status_code == 404
    assert "You are no longer a member of Inference" in response.text
    assert "An owner removed you from the team" in response.text


def test_a_member_who_left_is_told_they_left(client: Client, team: Team, member: User) -> None:
    client.force_login(member)
    client.post("/teams/inference/leave/")
    response = client.get(TEAM)
    assert response.status_code == 404
    assert "You left the team" in response.text


@pytest.mark.parametrize("who", ["stranger", "other_former"])
def test_nobody_else_learns_anything_from_the_link(
    removed: User, other_team: Team, who: str
) -> None:
    client = Client()  # without the owner's "removed" message still waiting in the session
    if who == "stranger":
        client.force_login(UserFactory())
        url = TEAM
    else:
        # A former member of Inference asking about a team they were never in.
        client.force_login(removed)
        url = f"/teams/{other_team.slug}/"
    response = client.get(url)
    assert response.status_code == 404
    assert "no longer a member" not in response.text
    assert "of Inference" not in response.text and "Kernels" not in response.text
    assert "We could not find that page" in response.text


def test_back_in_the_team_the_page_is_the_team_again(
    client: Client, team: Team, owner: User, removed: User
) -> None:
    from teams import services

    services.Membership.objects.create(team=team, user=removed)
    client.force_login(removed)
    response = client.get(TEAM)
    assert response.status_code == 200 and "You are no longer a member" not in response.text


def test_the_owner_is_told_what_removing_does(
    client: Client, team: Team, owner: User, member: User
) -> None:
    client.force_login(owner)
    page = client.get(f"/teams/inference/members/{member.pk}/remove/").text
    assert "become private to them" in page and "told by email" in page
