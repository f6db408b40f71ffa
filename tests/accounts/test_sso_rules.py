"""Identity-provider sign-ins: a refusal names the real reason, and a verified sign-in onto an
account whose address was never verified takes it over clean (no pre-account hijack)."""

from types import SimpleNamespace

import pytest
from allauth.account.models import EmailAddress
from allauth.core.exceptions import ImmediateHttpResponse
from allauth.socialaccount.models import SocialAccount, SocialLogin
from django.contrib.messages.storage.fallback import FallbackStorage
from django.contrib.sessions.backends.db import SessionStore
from django.core.handlers.wsgi import WSGIRequest
from django.test import RequestFactory
from pytest_django import Settings

from accounts.adapters import SocialAccountAdapter
from accounts.models import User
from teams import services
from teams.models import Membership, Team
from tests.factories import UserFactory


def sso_request(rf: RequestFactory) -> WSGIRequest:
    request = rf.get("/accounts/oidc/acme/login/callback/")
    request.session = SessionStore()
    request._messages = FallbackStorage(request)  # type: ignore[attr-defined]  # as MessageMiddleware sets it
    return request


def sign_in(
    *addresses: tuple[str, bool], user: User | None = None, existing_account: bool = False
) -> SimpleNamespace:
    """A sign-in as the provider reports it: (email, verified) pairs."""
    return SimpleNamespace(
        provider=SimpleNamespace(name="Acme SSO"),
        email_addresses=[EmailAddress(email=email, verified=ok) for email, ok in addresses],
        is_existing=user is not None,
        user=user,
        account=SimpleNamespace(pk=1 if existing_account else None),
    )


def refusal(rf: RequestFactory, sociallogin: SimpleNamespace) -> str:
    with pytest.raises(ImmediateHttpResponse) as raised:
        SocialAccountAdapter(None).pre_social_login(sso_request(rf), sociallogin)
    response = raised.value.response
    assert response.status_code == 403
    return response.content.decode()


@pytest.fixture
def domains_mode(settings: Settings) -> None:
    settings.ACCOUNT_SIGNUP_MODE = "domains"
    settings.ACCOUNT_SIGNUP_ALLOWED_DOMAINS = ["acme.example"]


def test_domain_rule_is_the_reason_given(rf: RequestFactory, db: None, domains_mode: None) -> None:
    page = refusal(rf, sign_in(("alice@elsewhere.example", True)))
    assert "Signing up is open to addresses at acme.example only." in page
    assert "did not share" not in page


def test_unverified_address_at_the_domain_says_so(
    rf: RequestFactory, db: None, domains_mode: None
) -> None:
    page = refusal(rf, sign_in(("alice@acme.example", False)))
    assert "your identity provider has not verified alice@acme.example" in page


def test_missing_invitation_is_the_reason_given(
    rf: RequestFactory, db: None, settings: Settings
) -> None:
    settings.ACCOUNT_SIGNUP_MODE = "invitation"
    page = refusal(rf, sign_in(("alice@acme.example", True)))
    assert "Signing up on this site is by invitation." in page
    assert "did not share" not in page


def test_no_address_at_all_is_the_reason_only_when_sign_up_is_open(
    rf: RequestFactory, db: None, settings: Settings
) -> None:
    settings.ACCOUNT_SIGNUP_MODE = "open"
    assert "Acme SSO did not share your email address" in refusal(rf, sign_in())


@pytest.fixture
def planted(db: None) -> User:
    """An account someone registered with alice's address, never verified, in a team."""
    user = UserFactory(email="alice@acme.example", display_name="Alice (really Mallory)")
    EmailAddress.objects.create(user=user, email=user.email, verified=False, primary=True)
    owner = UserFactory(email="owner@acme.example")
    team = services.create_team(name="Inference", owner=owner)
    Membership.objects.create(team=team, user=user)
    alone = Team.objects.create(name="Mallory's", slug="mallorys")
    Membership.objects.create(team=alone, user=user, role="owner")
    return user


def social_login(rf: RequestFactory, *addresses: tuple[str, bool]) -> SocialLogin:
    """allauth's own sign-in object, looked up as allauth does, for the given addresses."""

    return SocialLogin(
        provider=SimpleNamespace(name="Acme SSO", app=None, get_settings=lambda: {}),
        account=SocialAccount(provider="acme", uid="alice-at-acme"),
        user=UserFactory.build(email=addresses[0][0]),
        email_addresses=[EmailAddress(email=email, verified=ok) for email, ok in addresses],
    )


def test_a_verified_sign_in_never_lands_in_an_unverified_account(
    rf: RequestFactory, planted: User
) -> None:
    adapter = SocialAccountAdapter(sso_request(rf))

    assert adapter.authenticate_by_email(social_login(rf, ("alice@acme.example", True))) is None

    page = refusal(rf, sign_in(("alice@acme.example", True)))
    assert "already uses alice@acme.example, but its address was never verified" in page
    assert "log in with its password and verify the address" in page
    planted.refresh_from_db()
    assert planted.has_usable_password() and planted.display_name == "Alice (really Mallory)"
    assert not SocialAccount.objects.filter(user=planted).exists()


def test_a_verified_account_is_signed_into(rf: RequestFactory, planted: User) -> None:
    EmailAddress.objects.filter(user=planted).update(verified=True)
    adapter = SocialAccountAdapter(sso_request(rf))

    found = adapter.authenticate_by_email(social_login(rf, ("alice@acme.example", True)))

    assert found == (planted, "alice@acme.example")
