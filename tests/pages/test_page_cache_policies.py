"""The page cache's bounds and failure modes, through Django's test client: which query strings
and hosts make a page of their own, and what a reader sees when the cache is down."""

from collections.abc import Callable, Iterator

import pytest
from django.db import connection
from django.test import Client
from pytest_django import DjangoCaptureOnCommitCallbacks, Settings

from accounts.models import User
from readinglist.pagecache import policies, versions
from readinglist.pagecache.store import process_pages
from tests.conftest import PASSWORD
from tests.hints import Response, SmallCatalog


def visit(url: str = "/", host: str = "127.0.0.1", **headers: str) -> Response:
    return Client().get(url, headers=headers, HTTP_HOST=host)


@pytest.fixture
def catalog(
    small_catalog: SmallCatalog,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
    settings: Settings,
) -> SmallCatalog:
    settings.ALLOWED_HOSTS = ["127.0.0.1", "localhost", "testserver"]
    process_pages.clear()
    return small_catalog


def test_known_parameters_share_one_page_whatever_their_order(catalog: SmallCatalog) -> None:
    assert visit("/sources/?q=attention&sort=year")["X-Page-Cache"] == "miss"
    assert visit("/sources/?sort=year&q=attention")["X-Page-Cache"] == "hit"


def test_unknown_parameters_are_served_but_never_stored(catalog: SmallCatalog) -> None:
    first = visit("/sources/?h=1")
    assert first.status_code == 200 and b"FlashAttention" in first.content
    assert visit("/sources/?h=1").get("X-Page-Cache") != "hit"
    assert visit("/topics/?page=2").get("X-Page-Cache") != "hit"  # the index reads no page


def test_a_page_rendered_by_another_release_is_never_served(
    catalog: SmallCatalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    visit("/sources/flashattention/")
    assert visit("/sources/flashattention/")["X-Page-Cache"] == "hit"
    # A deploy: new templates and views, the same data and versions.
    monkeypatch.setattr(policies, "release", lambda: "the-next-release")
    assert visit("/sources/flashattention/")["X-Page-Cache"] == "miss"


def test_each_host_gets_its_own_page(catalog: SmallCatalog) -> None:
    visit("/sources/flashattention/", host="localhost")
    assert visit("/sources/flashattention/", host="localhost")["X-Page-Cache"] == "hit"
    assert visit("/sources/flashattention/", host="127.0.0.1")["X-Page-Cache"] == "miss"


class Down:
    """A cache backend whose server is gone."""

    def __getattr__(self, name: str) -> Callable[..., None]:
        def refuse(*args: object, **kwargs: object) -> None:
            raise ConnectionRefusedError("cache refused")

        return refuse


@pytest.fixture
def cache_down(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    down = Down()
    monkeypatch.setattr(versions, "caches", {"default": down})
    monkeypatch.setattr("readinglist.pagecache.store.caches", {"pages": down})
    yield
    versions._pending.clear()


def test_pages_are_served_without_the_cache_when_it_is_down(
    catalog: SmallCatalog, cache_down: None, caplog: pytest.LogCaptureFixture
) -> None:
    for _ in range(3):
        response = visit("/sources/flashattention/")
        assert response.status_code == 200 and b"FlashAttention" in response.content
        assert "X-Page-Cache" not in response
    warnings = [r for r in caplog.records if r.name == "readinglist.pagecache"]
    assert len(warnings) <= 1  # at most one a minute


def test_a_failed_bump_fails_no_write_and_serves_no_stale_page(
    catalog: SmallCatalog,
    reader: User,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    client = Client()
    client.force_login(reader)
    client.get("/library/")
    assert client.get("/library/")["X-Page-Cache"] == "hit"
    real_cache = versions.caches["default"]

    def set_many_refused(*args: object, **kwargs: object) -> None:
        raise ConnectionRefusedError("cache refused")

    monkeypatch.setattr(real_cache, "set_many", set_many_refused)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            "/library/bookmarks/flashattention/", {"status": "reading"}, follow=True
        )
    assert response.status_code == 200  # the write is reported as saved
    # The bump waits: this process serves and stores no page until it has been made.
    page = client.get("/library/")
    assert page.get("X-Page-Cache") != "hit"
    assert b"FlashAttention" in page.content
    monkeypatch.undo()
    assert client.get("/library/")["X-Page-Cache"] == "miss"  # the retried bump dropped it
    assert not versions.bumps_pending()


def test_a_flood_of_pages_never_evicts_a_rate_limit(
    catalog: SmallCatalog, reader: User, settings: Settings
) -> None:
    """Fill the page cache past its cap: the login lockout in the other cache holds."""
    settings.CACHES = {
        alias: {**config, "OPTIONS": {"MAX_ENTRIES": 30, "CULL_FREQUENCY": 2}}
        for alias, config in settings.CACHES.items()
    }
    assert settings.CACHES["pages"]["LOCATION"] != settings.CACHES["default"]["LOCATION"]
    email = reader.email
    login = Client()
    for _ in range(6):
        login.post("/accounts/login/", {"login": email, "password": "wrong password"})
    for page in range(1, 50):
        visit(f"/sources/?page={page}&q=attention")
        visit(f"/sources/?q=flood{page}")
    with connection.cursor() as cursor:
        cursor.execute("SELECT COUNT(*) FROM readinglist_pages")
        assert cursor.fetchone()[0] <= 30
    response = login.post("/accounts/login/", {"login": email, "password": PASSWORD})
    assert response.status_code != 302
    assert b"Too many failed login attempts" in response.content
