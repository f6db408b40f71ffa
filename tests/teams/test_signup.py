import re

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.test import Client
from pytest_django import Settings

from accounts.models import User
from teams.models import Team
from tests.conftest import PASSWORD
from tests.hints import Response, found
from tests.teams.conftest import proved_domain


def sign_up(client: Client, email: str) -> Response:
    return client.post(
        "/accounts/signup/", {"email": email, "password1": PASSWORD, "password2": PASSWORD}
    )


@pytest.fixture
def domains_mode(settings: Settings, db: None) -> None:
    settings.ACCOUNT_SIGNUP_MODE = "domains"
    settings.ACCOUNT_SIGNUP_ALLOWED_DOMAINS = ["example.com"]
    settings.ACCOUNT_EMAIL_VERIFICATION = "mandatory"


def test_domains_mode_refuses_other_domains(client: Client, domains_mode: None) -> None:
    response = sign_up(client, "someone@elsewhere.org")
    assert "Signing up is open to addresses at example.com only." in response.content.decode()
    assert not EmailAddress.objects.exists()


def test_domain_reader_joins_team_on_confirming(
    client: Client, domains_mode: None, team: Team, owner: User
) -> None:
    proved_domain(team, "example.com")
    sign_up(client, "new@example.com")
    assert not team.memberships.filter(user__email="new@example.com").exists()
    (message,) = mail.outbox
    confirm = found(
        re.search(r"https?://[^/\s]+(/accounts/confirm-email/\S+/)", str(message.body))
    ).group(1)
    client.post(confirm)
    assert team.memberships.filter(user__email="new@example.com").exists()


def test_open_mode_allows_any_domain(client: Client, settings: Settings, team: Team) -> None:
    settings.ACCOUNT_SIGNUP_MODE = "open"
    assert sign_up(client, "anyone@elsewhere.org").status_code == 302
    assert not team.memberships.filter(user__email="anyone@elsewhere.org").exists()


def test_invitation_mode_is_closed_without_an_invitation(
    client: Client, settings: Settings, db: None
) -> None:
    settings.ACCOUNT_SIGNUP_MODE = "invitation"
    sign_up(client, "anyone@example.com")
    assert not EmailAddress.objects.exists()
