"""Identity-provider sign-ins: a refusal names the real reason, and a verified sign-in onto an
account whose address was never verified takes it over clean (no pre-account hijack)."""

from types import SimpleNamespace

import pytest
from allauth.account.models import EmailAddress
from allauth.core.exceptions import ImmediateHttpResponse
from django.contrib.messages import get_messages
from django.contrib.messages.storage.fallback import FallbackStorage
from django.contrib.sessions.backends.db import SessionStore

from accounts.adapters import SocialAccountAdapter
from teams import services
from teams.models import Membership, Team
from tests.factories import UserFactory


def sso_request(rf):
    request = rf.get("/accounts/oidc/acme/login/callback/")
    request.session = SessionStore()
    request._messages = FallbackStorage(request)
    return request


def sign_in(*addresses, user=None, existing_account=False):
    """A sign-in as the provider reports it: (email, verified) pairs."""
    return SimpleNamespace(
        provider=SimpleNamespace(name="Acme SSO"),
        email_addresses=[EmailAddress(email=email, verified=ok) for email, ok in addresses],
        is_existing=user is not None,
        user=user,
        account=SimpleNamespace(pk=1 if existing_account else None),
    )


def refusal(rf, sociallogin) -> str:
    with pytest.raises(ImmediateHttpResponse) as raised:
        SocialAccountAdapter(None).pre_social_login(sso_request(rf), sociallogin)
    response = raised.value.response
    assert response.status_code == 403
    return response.content.decode()


@pytest.fixture
def domains_mode(settings):
    settings.ACCOUNT_SIGNUP_MODE = "domains"
    settings.ACCOUNT_SIGNUP_ALLOWED_DOMAINS = ["acme.example"]


def test_domain_rule_is_the_reason_given(rf, db, domains_mode):
    page = refusal(rf, sign_in(("alice@elsewhere.example", True)))
    assert "Signing up is open to addresses at acme.example only." in page
    assert "did not share" not in page


def test_unverified_address_at_the_domain_says_so(rf, db, domains_mode):
    page = refusal(rf, sign_in(("alice@acme.example", False)))
    assert "your identity provider has not verified alice@acme.example" in page


def test_missing_invitation_is_the_reason_given(rf, db, settings):
    settings.ACCOUNT_SIGNUP_MODE = "invitation"
    page = refusal(rf, sign_in(("alice@acme.example", True)))
    assert "Signing up on this site is by invitation." in page
    assert "did not share" not in page


def test_no_address_at_all_is_the_reason_only_when_sign_up_is_open(rf, db, settings):
    settings.ACCOUNT_SIGNUP_MODE = "open"
    assert "Acme SSO did not share your email address" in refusal(rf, sign_in())


@pytest.fixture
def planted(db):
    """An account someone registered with alice's address, never verified, in a team."""
    user = UserFactory(email="alice@acme.example", display_name="Alice (really Mallory)")
    EmailAddress.objects.create(user=user, email=user.email, verified=False, primary=True)
    owner = UserFactory(email="owner@acme.example")
    team = services.create_team(name="Inference", owner=owner)
    Membership.objects.create(team=team, user=user)
    alone = Team.objects.create(name="Mallory's", slug="mallorys")
    Membership.objects.create(team=alone, user=user, role="owner")
    return user


def test_verified_sign_in_takes_over_an_unverified_account_clean(rf, planted):
    request = sso_request(rf)
    login = sign_in(("alice@acme.example", True), user=planted)

    SocialAccountAdapter(None).pre_social_login(request, login)

    planted.refresh_from_db()
    assert not planted.has_usable_password()
    assert planted.display_name == ""
    assert not Membership.objects.filter(user=planted).exists()
    assert not Team.objects.filter(slug="mallorys").exists()  # nobody else was in it
    assert EmailAddress.objects.get(user=planted).verified
    (message,) = get_messages(request)
    assert "its password, display name and team memberships were cleared" in str(message)


def test_a_verified_account_is_left_alone(rf, planted):
    EmailAddress.objects.filter(user=planted).update(verified=True)
    SocialAccountAdapter(None).pre_social_login(
        sso_request(rf), sign_in(("alice@acme.example", True), user=planted)
    )
    planted.refresh_from_db()
    assert planted.has_usable_password() and planted.display_name == "Alice (really Mallory)"
    assert Membership.objects.filter(user=planted).count() == 2


def test_a_sole_owner_leaving_hands_the_team_to_its_longest_member(db):
    user = UserFactory(email="mallory@acme.example")
    team = services.create_team(name="Kernels", owner=user)
    first = UserFactory(email="first@acme.example")
    Membership.objects.create(team=team, user=first)
    assert services.drop_memberships(user=user) == 1
    assert Membership.objects.get(team=team, user=first).role == "owner"
