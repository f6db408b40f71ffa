"""An account whose address is not verified joins no team; it verifies, then lands in it."""

import re

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.test import Client
from pytest_django import Settings

from accounts.models import User
from teams import services
from teams.models import JoinLink, Membership, Team
from tests.conftest import PASSWORD
from tests.factories import UserFactory
from tests.hints import found


def confirmation_path() -> str:
    message = mail.outbox[-1]
    return found(
        re.search(r"https?://[^/\s]+(/accounts/confirm-email/\S+/)", str(message.body))
    ).group(1)


@pytest.fixture
def unverified(db: None) -> User:
    user = UserFactory(email="claimed@example.com")
    EmailAddress.objects.create(user=user, email=user.email, verified=False, primary=True)
    return user


def test_join_link_asks_an_unverified_reader_to_verify_then_joins(
    client: Client, team: Team, owner: User, unverified: User
) -> None:
    link = services.create_join_link(team=team, by=owner)
    client.force_login(unverified)

    response = client.post(f"/join/{link.token}/")

    assert response.status_code == 403
    assert "Verify your address to join Inference" in response.text
    assert "claimed@example.com" in response.text
    assert not Membership.objects.filter(team=team, user=unverified).exists()
    assert JoinLink.objects.get(pk=link.pk).uses == 0
    assert mail.outbox[-1].to == ["claimed@example.com"]
    client.post(f"/join/{link.token}/")
    assert len(mail.outbox) == 1  # pressing Join again sends no second mail

    landed = client.post(confirmation_path())

    assert landed["Location"] == "/teams/inference/"
    assert Membership.objects.filter(team=team, user=unverified).exists()
    assert "Welcome to Inference" in client.get(landed["Location"]).text


def test_shareable_invitation_waits_for_verification(
    client: Client, team: Team, owner: User, unverified: User
) -> None:
    _, token = services.invite(team=team, by=owner, email="x@example.com", any_email=True)
    client.force_login(unverified)
    response = client.post(f"/teams/invitations/{token}/")
    assert response.status_code == 403
    assert not Membership.objects.filter(team=team, user=unverified).exists()
    assert client.post(confirmation_path())["Location"] == "/teams/inference/"
    assert Membership.objects.filter(team=team, user=unverified).exists()


def test_invitation_to_the_readers_own_address_verifies_it(
    client: Client, team: Team, owner: User, unverified: User
) -> None:
    _, token = services.invite(team=team, by=owner, email="Claimed@example.com")
    client.force_login(unverified)
    assert client.post(f"/teams/invitations/{token}/")["Location"] == "/teams/inference/"
    assert EmailAddress.objects.get(user=unverified).verified


def test_invitation_only_sign_up_with_another_address_joins_after_verifying(
    client: Client, settings: Settings, team: Team, owner: User
) -> None:
    settings.ACCOUNT_SIGNUP_MODE = "invitation"
    _, token = services.invite(team=team, by=owner, email="x@example.com", any_email=True)
    client.get(f"/teams/invitations/{token}/")
    client.post(
        "/accounts/signup/",
        {"email": "other@example.org", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert not Membership.objects.filter(team=team, user__email="other@example.org").exists()
    assert client.post(confirmation_path())["Location"] == "/teams/inference/"
    assert Membership.objects.filter(team=team, user__email="other@example.org").exists()
