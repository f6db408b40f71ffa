"""Sign-in with an OpenID Connect provider in a real browser: allauth's real views against
oidc-provider-mock, a real provider served on 127.0.0.1 by the test itself."""

import re
import socket
from collections.abc import Iterator

import pytest
from allauth.socialaccount.models import SocialAccount
from django.utils import timezone
from oidc_provider_mock import User, run_server_in_thread
from playwright.sync_api import Page, expect
from pytest_django import Settings

from accounts.models import User as Reader
from teams import services
from teams.models import TeamDomain
from tests.factories import UserFactory
from tests.hints import Tiers

ALICE = "alice@acme.example"
UNVERIFIED = "mallory@acme.example"


@pytest.fixture(scope="module")
def provider() -> Iterator[str]:
    users = [
        User(sub=ALICE, claims={"email": ALICE, "email_verified": True, "name": "Alice"}),
        User(sub=UNVERIFIED, claims={"email": UNVERIFIED, "email_verified": False}),
    ]
    with run_server_in_thread(user_claims=users) as server:
        yield f"http://localhost:{server.server_port}"


def use_provider(settings: Settings, issuer: str) -> None:
    # The live server speaks plain HTTP: the callback allauth names must too.
    settings.SITE_SCHEME = settings.ACCOUNT_DEFAULT_HTTP_PROTOCOL = "http"
    csp = dict(settings.SECURE_CSP)
    csp["form-action"] = [*csp["form-action"], issuer]
    settings.SECURE_CSP = csp
    settings.SOCIALACCOUNT_PROVIDERS = {
        "openid_connect": {
            "OAUTH_PKCE_ENABLED": True,
            "APPS": [
                {
                    "provider_id": "acme",
                    "name": "Acme SSO",
                    "client_id": "readinglist",
                    "secret": "test-secret",
                    "settings": {"server_url": issuer},
                }
            ],
        }
    }


@pytest.fixture
def acme(settings: Settings, provider: str) -> None:
    use_provider(settings, provider)


def start_sign_in(page: Page) -> None:
    page.goto("/accounts/login/")
    page.get_by_role("button", name="Log in with Acme SSO").click()


def test_first_sign_in_creates_the_account_and_joins_domain_team(
    desktop_page: Page, acme: None, db: None
) -> None:
    owner = UserFactory(email="owner@corp.example")
    team = services.create_team(name="Acme readers", owner=owner)
    TeamDomain.objects.create(
        team=team, domain="acme.example", verified_at=timezone.now(), verified_by="dns"
    )
    page = desktop_page
    start_sign_in(page)
    page.get_by_role("button", name=f"Authorize as {ALICE}").click()
    expect(page.get_by_role("link", name="My library")).to_be_visible()
    page.goto("/teams/")
    expect(page.get_by_role("link", name="Acme readers")).to_be_visible()
    reader = Reader.objects.get(email=ALICE)
    assert team.memberships.filter(user=reader).exists()


def test_sign_in_connects_an_existing_account_with_the_same_verified_email(
    desktop_page: Page, acme: None, db: None
) -> None:
    from allauth.account.models import EmailAddress

    existing = UserFactory(email=ALICE)
    EmailAddress.objects.create(user=existing, email=ALICE, verified=True, primary=True)
    page = desktop_page
    start_sign_in(page)
    page.get_by_role("button", name=f"Authorize as {ALICE}").click()
    expect(page.get_by_role("link", name="My library")).to_be_visible()
    assert Reader.objects.filter(email__iexact=ALICE).count() == 1
    assert SocialAccount.objects.filter(user=existing, provider="acme").exists()


def test_sign_in_never_lands_in_an_account_whose_address_was_never_verified(
    desktop_page: Page, acme: None, tiers: Tiers
) -> None:
    from allauth.account.models import EmailAddress

    from tests.factories import NoteFactory

    # Someone registered alice's address first, never verified it, and wrote a note there.
    planted = UserFactory(email=ALICE, display_name="Mallory")
    EmailAddress.objects.create(user=planted, email=ALICE, verified=False, primary=True)
    NoteFactory(user=planted, body="Planted by Mallory")
    page = desktop_page
    start_sign_in(page)
    page.get_by_role("button", name=f"Authorize as {ALICE}").click()
    expect(page.get_by_role("alert")).to_contain_text(
        f"already uses {ALICE}, but its address was never verified"
    )
    page.goto("/library/notes/")
    expect(page).to_have_url(re.compile(r"/accounts/login/"))
    expect(page.get_by_text("Planted by Mallory")).to_have_count(0)
    assert not SocialAccount.objects.filter(user=planted).exists()
    assert Reader.objects.filter(email__iexact=ALICE).count() == 1


def test_unverified_email_at_the_provider_is_refused_clearly(
    desktop_page: Page, acme: None, db: None
) -> None:
    page = desktop_page
    start_sign_in(page)
    page.get_by_role("button", name=f"Authorize as {UNVERIFIED}").click()
    expect(page.get_by_role("alert")).to_contain_text(
        f"Acme SSO has not verified your email address {UNVERIFIED}"
    )
    assert not Reader.objects.filter(email=UNVERIFIED).exists()


def test_declining_at_the_provider_says_so(desktop_page: Page, acme: None, db: None) -> None:
    page = desktop_page
    start_sign_in(page)
    page.get_by_role("button", name="Deny").click()
    expect(page.get_by_role("heading", name="Logging in was cancelled")).to_be_visible()


def test_bad_state_gets_a_clear_message(desktop_page: Page, acme: None, db: None) -> None:
    page = desktop_page
    page.goto("/accounts/oidc/acme/login/callback/?code=forged&state=forged")
    expect(page.get_by_role("alert")).to_contain_text("This attempt to log in has expired")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_provider_down_gets_a_clear_message(
    desktop_page: Page, settings: Settings, db: None
) -> None:
    use_provider(settings, f"http://127.0.0.1:{free_port()}")
    page = desktop_page
    start_sign_in(page)
    expect(page.get_by_role("alert")).to_contain_text("We could not reach Acme SSO")
    assert page.title().startswith("Logging in failed")
