import re
from datetime import timedelta

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone
from pytest_django import Settings

from accounts.models import User
from teams import services
from teams.models import Invitation, JoinLink, Membership, Team
from tests.conftest import PASSWORD
from tests.factories import UserFactory
from tests.hints import Response, found
from tests.teams.conftest import verified_user


def test_team_list_shows_only_my_teams_and_creates(
    client: Client, team: Team, member: User, other_team: Team
) -> None:
    client.force_login(member)
    page = client.get("/teams/").content.decode()
    assert "Inference" in page and "Kernels" not in page
    response = client.post("/teams/", {"name": "Reading <club>", "description": ""})
    assert response.status_code == 302
    assert "Reading &lt;club&gt;" in client.get(response["Location"]).content.decode()


def test_create_form_keeps_what_was_typed(client: Client, member: User) -> None:
    client.force_login(member)
    response = client.post("/teams/", {"name": "!!!", "description": "Kept text"})
    assert response.status_code == 400
    assert "at least one letter" in response.content.decode()
    assert "Kept text" in response.content.decode()


@pytest.mark.parametrize("name", ["Kernels", "kernels", "Kernels!"])
def test_a_name_another_team_has_is_refused_with_the_input_kept(
    client: Client, member: User, other_team: Team, name: str
) -> None:
    client.force_login(member)
    response = client.post("/teams/", {"name": name, "description": "Kept text"})
    assert response.status_code == 400
    assert "Another team is already called" in response.text
    assert "Kept text" in response.text
    assert not Team.objects.filter(slug="kernels-2").exists()


def test_names_that_make_no_address_may_repeat(client: Client, member: User) -> None:
    client.force_login(member)
    assert client.post("/teams/", {"name": "読書会"}).status_code == 302
    assert client.post("/teams/", {"name": "輪読会"}).status_code == 302


def test_owner_sees_settings_member_does_not(
    client: Client, team: Team, owner: User, member: User
) -> None:
    client.force_login(member)
    page = client.get("/teams/inference/").content.decode()
    assert "member@example.com"[:6] in page and "Send invitation" not in page
    client.force_login(owner)
    assert "Send invitation" in client.get("/teams/inference/").content.decode()


def test_invitation_by_email_end_to_end(client: Client, team: Team, owner: User) -> None:
    client.force_login(owner)
    response = client.post("/teams/inference/invite/", {"email": "colleague@example.com"})
    assert response.status_code == 302
    (message,) = mail.outbox
    assert message.to == ["colleague@example.com"]
    link = found(re.search(r"https?://\S+/teams/invitations/\S+/", str(message.body))).group(0)
    path = link.split("readinglist.test", 1)[1]
    client.logout()
    colleague = UserFactory(email="colleague@example.com")
    client.force_login(colleague)
    assert "Accept and join Inference" in client.get(path).content.decode()
    assert client.post(path)["Location"] == "/teams/inference/"
    assert Membership.objects.filter(team=team, user=colleague).exists()
    client.force_login(UserFactory(email="late@example.com"))
    assert "already been used" in client.post(path).content.decode()


def test_invitation_refuses_other_address(client: Client, team: Team, owner: User) -> None:
    _, token = services.invite(team=team, by=owner, email="invited@example.com")
    client.force_login(UserFactory(email="someone@example.com"))
    response = client.post(f"/teams/invitations/{token}/")
    assert response.status_code == 409
    assert "This invitation is for invited@example.com" in response.content.decode()
    assert not team.memberships.filter(user__email="someone@example.com").exists()


def test_expired_invitation_says_so(client: Client, team: Team, owner: User) -> None:
    invitation, token = services.invite(team=team, by=owner, email="late@example.com")
    Invitation.objects.filter(pk=invitation.pk).update(expires=timezone.now())
    client.force_login(UserFactory(email="late@example.com"))
    assert "has expired" in client.post(f"/teams/invitations/{token}/").content.decode()


def test_unknown_invitation_is_404(client: Client, member: User) -> None:
    client.force_login(member)
    assert client.get("/teams/invitations/not-a-token/").status_code == 404


def join(client: Client, link: JoinLink) -> Response:
    return client.post(f"/join/{link.token}/")


def test_join_link_confirms_then_joins_on_post(client: Client, team: Team, owner: User) -> None:
    link = services.create_join_link(team=team, by=owner)
    reader = verified_user()
    client.force_login(reader)
    page = client.get(f"/join/{link.token}/")
    assert "Join Inference" in page.content.decode()
    assert not Membership.objects.filter(team=team, user=reader).exists()
    assert join(client, link)["Location"] == "/teams/inference/"
    assert Membership.objects.filter(team=team, user=reader).exists()


def test_join_link_max_uses(client: Client, team: Team, owner: User) -> None:
    link = services.create_join_link(team=team, by=owner, max_uses=1)
    client.force_login(verified_user())
    assert join(client, link).status_code == 302
    client.force_login(verified_user())
    response = join(client, link)
    assert response.status_code == 410
    assert "used as many times" in response.content.decode()
    assert team.memberships.count() == 2


def test_join_link_expiry(client: Client, team: Team, owner: User) -> None:
    link = services.create_join_link(
        team=team, by=owner, expires=timezone.now() + timedelta(hours=1)
    )
    JoinLink.objects.filter(pk=link.pk).update(expires=timezone.now() - timedelta(seconds=1))
    client.force_login(UserFactory())
    assert "has expired" in join(client, link).content.decode()


def test_revoked_join_link(client: Client, team: Team, owner: User) -> None:
    link = services.create_join_link(team=team, by=owner)
    client.force_login(owner)
    client.post(f"/teams/inference/links/{link.pk}/revoke/")
    client.force_login(UserFactory())
    response = join(client, link)
    assert response.status_code == 410
    assert "revoked" in response.content.decode()


def test_join_link_form_keeps_input(client: Client, team: Team, owner: User) -> None:
    client.force_login(owner)
    response = client.post("/teams/inference/links/", {"expires_in_days": "0", "max_uses": "7"})
    assert response.status_code == 400
    assert 'value="7"' in response.content.decode()


def test_anonymous_join_names_the_team_and_offers_log_in(
    client: Client, team: Team, owner: User
) -> None:
    link = services.create_join_link(team=team, by=owner)
    response = client.get(f"/join/{link.token}/")
    assert response.status_code == 200
    assert f'href="/accounts/login/?next=/join/{link.token}/"' in response.text


def test_last_owner_leaving_gets_a_message(client: Client, team: Team, owner: User) -> None:
    client.force_login(owner)
    response = client.post("/teams/inference/leave/", follow=True)
    assert "last owner" in response.content.decode()
    assert team.memberships.filter(user=owner).exists()


def test_owner_removes_and_promotes(client: Client, team: Team, owner: User, member: User) -> None:
    client.force_login(owner)
    client.post(f"/teams/inference/members/{member.pk}/promote/")
    assert Membership.objects.get(team=team, user=member).role == "owner"
    client.post(f"/teams/inference/members/{member.pk}/remove/")
    assert not team.memberships.filter(user=member).exists()
    client.force_login(member)
    assert client.get("/teams/inference/").status_code == 404


@pytest.fixture
def invite_only_signup(settings: Settings) -> None:
    settings.ACCOUNT_SIGNUP_MODE = "invitation"


def test_invitation_opens_signup_when_invitation_only(
    client: Client, team: Team, owner: User, invite_only_signup: None
) -> None:
    assert "closed" in client.get("/accounts/signup/").content.decode().lower()
    _, token = services.invite(team=team, by=owner, email="newbie@example.com")
    client.get(f"/teams/invitations/{token}/")
    other = client.post(
        "/accounts/signup/",
        {"email": "else@example.com", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert "address your invitation was sent to" in other.content.decode()
    client.post(
        "/accounts/signup/",
        {"email": "newbie@example.com", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert team.memberships.filter(user__email="newbie@example.com").exists()
