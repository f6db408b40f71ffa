"""One wording for getting in and out: "Log in", "Sign up" and "Log out", in our templates and
in allauth's, on every page of the flow and in the header."""

import re
from html import unescape

import pytest
from django.test import Client
from pytest_django import Settings

from accounts.models import User
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

# Every other spelling of the three actions a reader might meet.
VARIANTS = re.compile(
    r"\bsign(?:ed|ing)?[\s-]?(?:in|out)\b"
    r"|\bLog In\b|\bSign Up\b|\bLog Out\b"
    r"|\blog-?ins?\b|\blog-?outs?\b|\bsign-?ups?\b",
    re.IGNORECASE,
)


def reader_text(html: str) -> str:
    """What a reader sees or hears: the text, and the labels in titles and aria-labels."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    labels = re.findall(r'\b(?:title|aria-label|alt|placeholder)="([^"]*)"', html)
    text = re.sub(r"<[^>]+>", " ", html)
    return unescape(" ".join([text, *labels]))


def variants_in(html: str) -> list[str]:
    found = []
    for match in VARIANTS.finditer(reader_text(html)):
        words = match.group(0)
        # "Log in", "Sign up", "Log out" in sentence or title case are the chosen wording.
        if words in ("Log in", "log in", "Sign up", "sign up", "Log out", "log out"):
            continue
        found.append(words)
    return found


def test_the_variant_finder_finds_what_the_issue_reported() -> None:
    assert variants_in("<button>Sign In</button> or <a>Sign Up</a>") == ["Sign In", "Sign Up"]
    assert variants_in('<a title="Signed in as x">Login</a>') == ["Login", "Signed in"]
    assert variants_in("<p>Log in, or sign up. Log out.</p>") == []


@pytest.mark.parametrize(
    "url",
    [
        "/",
        "/accounts/login/",
        "/accounts/signup/",
        "/accounts/password/reset/",
        "/accounts/password/reset/done/",
        "/accounts/confirm-email/",
    ],
)
def test_the_flow_for_visitors_speaks_one_wording(client: Client, url: str) -> None:
    response = client.get(url)
    assert response.status_code == 200
    assert variants_in(response.content.decode()) == []


def test_the_login_page_says_log_in_and_sign_up(client: Client) -> None:
    html = client.get("/accounts/login/").content.decode()
    assert re.search(r"<h1[^>]*>\s*Log in\s*</h1>", html)
    assert re.search(r'<button[^>]*type="submit"[^>]*>\s*Log in\s*</button>', html)
    assert re.search(r'<a href="/accounts/signup/[^"]*">Sign up</a>', html)


def test_the_signup_page_says_sign_up_and_log_in(client: Client) -> None:
    html = client.get("/accounts/signup/").content.decode()
    assert re.search(r"<h1[^>]*>\s*Sign up\s*</h1>", html)
    assert re.search(r'<button[^>]*type="submit"[^>]*>\s*Sign up\s*</button>', html)


def test_closed_signup_speaks_one_wording(client: Client, settings: Settings) -> None:
    settings.ACCOUNT_SIGNUP_MODE = "invitation"
    html = client.get("/accounts/signup/").content.decode()
    assert "Sign up is closed" in html
    assert variants_in(html) == []


def test_logging_in_and_out_speaks_one_wording(client: Client, reader: User) -> None:
    response = client.post(
        "/accounts/login/", {"login": reader.email, "password": PASSWORD}, follow=True
    )
    html = response.content.decode()
    assert "You are logged in as " in html  # allauth's message, in our words
    assert "Logged in as" in html  # the header menu
    assert variants_in(html) == []
    logout_page = client.get("/accounts/logout/").content.decode()
    assert variants_in(logout_page) == []
    response = client.post("/accounts/logout/", follow=True)
    html = response.content.decode()
    assert "You have logged out." in html
    assert variants_in(html) == []
