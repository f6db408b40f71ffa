"""Per-reader rate limits on what makes the site fetch or parse: "Fill from link" and imports.
Counted in the database, so no cache eviction or second process lets a reader start over."""

import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from django.core.cache import caches
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pytest_django import Settings

from accounts.models import User
from readinglist import ratelimits
from readinglist.ratelimits.models import Window
from tests.factories import UserFactory
from tests.hints import Response, present

pytestmark = pytest.mark.django_db

PARALLEL = 12
BIB = "@misc{m, title = {Attention Is All You Need}, year = 2017}\n"


class ReaderClient(Client):
    """A test client logged in as `reader`."""

    reader: User


@pytest.fixture
def reader_client() -> ReaderClient:
    client = ReaderClient()
    client.reader = UserFactory(email="limited@example.org")
    client.force_login(client.reader)
    return client


def fill(client: Client, *, hx: bool = False) -> Response:
    headers = {"HX-Request": "true"} if hx else {}
    return client.post(reverse("proposals:propose-fill"), {"url": "not a link"}, headers=headers)


def test_fill_from_link_is_limited_per_reader(
    reader_client: ReaderClient, client: Client, settings: Settings
) -> None:
    settings.PROPOSALS_FILLS_PER_HOUR = 3
    for _ in range(3):
        assert fill(reader_client).status_code == 200
    refused = fill(reader_client)
    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= 3600
    text = refused.content.decode()
    assert "You have filled from a link 3 times in the last hour" in text
    assert "Try again in 60 minutes, or fill the answers in yourself." in text
    # The form is still there, with what the reader typed.
    assert 'name="title"' in text
    # Another reader is not affected.
    other = UserFactory(email="other@example.org")
    client.force_login(other)
    assert fill(client).status_code == 200


def test_htmx_gets_the_reason_in_the_form_it_swaps(
    reader_client: ReaderClient, settings: Settings
) -> None:
    settings.PROPOSALS_FILLS_PER_HOUR = 1
    fill(reader_client, hx=True)
    refused = fill(reader_client, hx=True)
    # htmx swaps no 4xx answer, so the reason comes as a 200 fragment.
    assert refused.status_code == 200
    assert "You have filled from a link 1 time in the last hour" in refused.content.decode()


def test_a_refused_fill_fetches_nothing(
    reader_client: ReaderClient, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.PROPOSALS_FILLS_PER_HOUR = 0
    fetched = []
    monkeypatch.setattr("proposals.views.fill_from", lambda raw: fetched.append(raw))
    assert fill(reader_client).status_code == 429
    assert fetched == []


def test_the_limit_survives_a_cache_flush(reader_client: ReaderClient, settings: Settings) -> None:
    settings.PROPOSALS_FILLS_PER_HOUR = 2
    fill(reader_client)
    fill(reader_client)
    for alias in settings.CACHES:
        caches[alias].clear()
    assert fill(reader_client).status_code == 429


def test_a_new_window_starts_when_the_last_one_ended(
    reader_client: ReaderClient, settings: Settings
) -> None:
    settings.PROPOSALS_FILLS_PER_HOUR = 2
    fill(reader_client)
    fill(reader_client)
    assert fill(reader_client).status_code == 429
    Window.objects.update(started=timezone.now() - timedelta(hours=1, seconds=1))
    assert fill(reader_client).status_code == 200
    assert fill(reader_client).status_code == 200
    assert fill(reader_client).status_code == 429
    # One row per reader and action, whatever their history.
    assert Window.objects.filter(user=reader_client.reader).count() == 1


def upload(client: Client, text: str = BIB) -> Response:
    file = SimpleUploadedFile("library.bib", text.encode())
    return client.post(reverse("library:import"), {"file": file})


def test_imports_are_limited_per_reader(reader_client: ReaderClient, settings: Settings) -> None:
    settings.LIBRARY_IMPORTS_PER_HOUR = 2
    assert upload(reader_client).status_code == 200
    # A refused file counts too: parsing it cost as much.
    assert upload(reader_client, "\x00").status_code == 400
    refused = upload(reader_client)
    assert refused.status_code == 429
    assert "Retry-After" in refused
    text = refused.content.decode()
    assert "You have imported 2 files in the last hour" in text
    assert 'role="alert"' in text


def test_the_refusal_says_how_long_to_wait(db: None) -> None:
    reader = UserFactory()
    assert ratelimits.consume(user_id=reader.pk, action="test", limit=1) is None
    refusal = ratelimits.consume(user_id=reader.pk, action="test", limit=1)
    assert refusal is not None and refusal.wait == "60 minutes"
    Window.objects.update(started=timezone.now() - timedelta(minutes=59, seconds=30))
    assert present(ratelimits.consume(user_id=reader.pk, action="test", limit=1)).wait == "a minute"
    # Other actions are counted apart.
    assert ratelimits.consume(user_id=reader.pk, action="other", limit=1) is None


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_uses_never_pass_the_limit() -> None:
    reader = UserFactory(email="hurried@example.org")
    start = threading.Barrier(PARALLEL)

    def use(_: int) -> bool:
        try:
            start.wait()
            return ratelimits.consume(user_id=reader.pk, action="race", limit=3) is None
        finally:
            connection.close()

    with ThreadPoolExecutor(PARALLEL) as pool:
        allowed = list(pool.map(use, range(PARALLEL)))
    assert allowed.count(True) == 3
    assert Window.objects.get(user=reader, action="race").uses == 3
