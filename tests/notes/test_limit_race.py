"""The hourly note limit holds when one account's requests arrive all at once."""

import secrets
import threading
import urllib.error
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.conf import settings as django_settings
from django.test import Client
from pytest_django import Settings
from pytest_django.live_server_helper import LiveServer

from accounts.models import User
from notes.models import Note
from tests.factories import SourceFactory, UserFactory

PARALLEL = 20
LIMIT = 5


def session_cookie_for(user: User) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[django_settings.SESSION_COOKIE_NAME].value


def post_note(url: str, cookies: str, token: str, start: threading.Barrier) -> int:
    data = urllib.parse.urlencode(
        {"body": "Written in a hurry", "visibility": "private", "csrfmiddlewaretoken": token}
    ).encode()
    request = urllib.request.Request(url, data=data, headers={"Cookie": cookies})
    start.wait()
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_parallel_posts_store_no_more_than_the_limit(
    live_server: LiveServer, settings: Settings
) -> None:
    settings.NOTES_MAX_PER_HOUR = LIMIT
    reader = UserFactory(email="hurried@example.com")
    source = SourceFactory(slug="flashattention")
    # An unmasked CSRF secret is accepted both as the cookie and as the form's token.
    token = secrets.token_hex(16)
    cookies = (
        f"{django_settings.SESSION_COOKIE_NAME}={session_cookie_for(reader)}; "
        f"{django_settings.CSRF_COOKIE_NAME}={token}"
    )
    url = f"{live_server.url}/sources/{source.slug}/notes/new/"
    start = threading.Barrier(PARALLEL)

    with ThreadPoolExecutor(PARALLEL) as pool:
        statuses = list(pool.map(lambda _: post_note(url, cookies, token, start), range(PARALLEL)))

    # Saved notes redirect to the source page; refused ones show the form again with the reason.
    assert statuses == [200] * PARALLEL
    assert Note.objects.filter(user=reader).count() == LIMIT
