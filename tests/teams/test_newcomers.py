"""A visitor who is not signed in keeps their team through sign-up: the join link or invitation
names the team and offers a sign-up form, and whichever sign-up button they press, they end on
the team's page as a member (after verifying their address where the team requires it)."""

import re

import pytest
from django.core import mail
from django.test import Client

from accounts.models import User
from teams import services
from teams.models import JoinLink, Team
from tests.conftest import PASSWORD
from tests.hints import Response, found

CONFIRM = re.compile(r"https?://[^/\s]+(/accounts/confirm-email/\S+/)")


@pytest.fixture
def link(team: Team, owner: User) -> JoinLink:
    return services.create_join_link(team=team, by=owner)


def sign_up(client: Client, email: str) -> Response:
    """The sign-up form of the header's "Sign up" button: it carries no way back."""
    return client.post(
        "/accounts/signup/", {"email": email, "password1": PASSWORD, "password2": PASSWORD}
    )


def confirm_address(client: Client) -> Response:
    (message,) = [m for m in mail.outbox if "confirm-email" in m.body]
    return client.post(found(CONFIRM.search(str(message.body))).group(1))


def test_a_join_link_names_the_team_and_offers_sign_up(client: Client, link: JoinLink) -> None:
    page = client.get(link.get_absolute_url())
    assert page.status_code == 200
    assert "<h1>Join Inference</h1>" in page.text
    assert 'action="/accounts/signup/"' in page.text
    assert "Sign up and join Inference" in page.text
    assert f"/accounts/login/?next=/join/{link.token}/" in page.text


def test_a_newcomer_from_a_join_link_lands_on_the_team_as_a_member(
    client: Client, team: Team, link: JoinLink
) -> None:
    client.get(link.get_absolute_url())
    response = sign_up(client, "newcomer@example.com")
    assert response["Location"] == "/join/verify/"
    waiting = client.get("/join/verify/")
    assert "<h1>Verify your address to join Inference</h1>" in waiting.text
    assert not team.memberships.filter(user__email="newcomer@example.com").exists()
    response = confirm_address(client)
    assert response["Location"] == "/teams/inference/"
    assert team.memberships.filter(user__email="newcomer@example.com").exists()
    assert "Welcome to Inference." in client.get("/teams/inference/").text


def test_a_revoked_join_link_keeps_nothing_for_sign_up(
    client: Client, team: Team, owner: User, link: JoinLink
) -> None:
    services.revoke_join_link(link=link, by=owner)
    page = client.get(link.get_absolute_url())
    assert page.status_code == 410
    assert "Sign up and join" not in page.text
    assert sign_up(client, "newcomer@example.com")["Location"] == "/"


def test_an_invitation_prefills_the_address_and_joins_at_sign_up(
    client: Client, team: Team, owner: User
) -> None:
    _, token = services.invite(team=team, by=owner, email="grace@example.com")
    page = client.get(f"/teams/invitations/{token}/")
    assert 'value="grace@example.com"' in page.text
    # The invited address needs no confirming, and the page does not ask for any.
    assert "After you confirm your address" not in page.text
    assert "Sign up with grace@example.com and you land on the team's page" in page.text
    assert "Sign up and join Inference" in page.text
    response = sign_up(client, "grace@example.com")
    assert response["Location"] == "/teams/inference/"
    assert team.memberships.filter(user__email="grace@example.com").exists()
    assert "Welcome to Inference." in client.get("/teams/inference/").text


def test_an_open_invitation_prefills_nothing(client: Client, team: Team, owner: User) -> None:
    _, token = services.invite(team=team, by=owner, email="team@example.com", any_email=True)
    page = client.get(f"/teams/invitations/{token}/")
    assert "Sign up and join Inference" in page.text
    assert 'value="team@example.com"' not in page.text
    assert "After you confirm your address" in page.text


def test_the_verification_page_sends_the_link_again(
    client: Client, team: Team, link: JoinLink
) -> None:
    client.get(link.get_absolute_url())
    sign_up(client, "newcomer@example.com")
    sent = len(mail.outbox)
    client.post("/join/verify/")
    assert len(mail.outbox) == sent + 1
    confirm_address_again = found(CONFIRM.search(str(mail.outbox[-1].body))).group(1)
    assert client.post(confirm_address_again)["Location"] == "/teams/inference/"
