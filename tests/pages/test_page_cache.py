"""Anonymous catalog pages are served from the shared cache until the catalog changes."""

import re
from datetime import timedelta

import pytest
from django.contrib.messages import constants
from django.contrib.messages.storage.cookie import CookieStorage
from django.test import Client, RequestFactory
from django.utils import timezone
from pytest_django import DjangoAssertNumQueries, DjangoCaptureOnCommitCallbacks, Settings

from accounts.models import User
from catalog.models import Source, Topic
from readinglist.pagecache import bump_catalog_version, catalog_version
from readinglist.pagecache.store import ProcessPages, process_pages
from tests.hints import Response, SmallCatalog, found


def visit(url: str = "/", **headers: str) -> Response:
    return Client(enforce_csrf_checks=True).get(url, headers=headers)


@pytest.fixture
def catalog(
    small_catalog: SmallCatalog, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> SmallCatalog:
    return small_catalog


def test_a_second_anonymous_visitor_gets_the_cached_page(
    catalog: SmallCatalog, django_assert_max_num_queries: DjangoAssertNumQueries
) -> None:
    first = visit()
    assert first["X-Page-Cache"] == "miss"
    # The catalog version only: this process keeps the page it rendered in its own memory.
    with django_assert_max_num_queries(1):
        second = visit()
    assert second["X-Page-Cache"] == "hit"
    assert second.status_code == 200
    strip = re.compile(rb'("x-csrftoken": "|nonce="|value=")[^"]*"')
    assert strip.sub(b"", second.content) == strip.sub(b"", first.content)


def test_each_visitor_keeps_their_own_csrf_token_and_csp_nonce(catalog: SmallCatalog) -> None:
    visit()
    client = Client(enforce_csrf_checks=True)
    response = client.get("/")
    assert response["X-Page-Cache"] == "hit"
    html = response.content.decode()
    nonce = found(re.search(r'<script[^>]+nonce="([^"]+)"', html)).group(1)
    assert f"'nonce-{nonce}'" in response["Content-Security-Policy"]
    token = found(re.search(r'"x-csrftoken": "([^"]+)"', html)).group(1)
    # The token in the cached page works with this visitor's own cookie.
    assert "csrftoken" in response.cookies
    assert client.post("/accounts/logout/", HTTP_X_CSRFTOKEN=token).status_code != 403
    other = visit()
    assert found(re.search(r'"x-csrftoken": "([^"]+)"', other.content.decode())).group(1) != token


def test_an_edit_shows_at_once(
    catalog: SmallCatalog, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    visit("/sources/flashattention/")
    flash = catalog["flash"]
    with django_capture_on_commit_callbacks(execute=True):
        flash.title = "FlashAttention, revised"
        flash.save()
    response = visit("/sources/flashattention/")
    assert response["X-Page-Cache"] == "miss"
    assert "FlashAttention, revised" in response.content.decode()


def test_many_to_many_and_delete_changes_bump_the_version(
    catalog: SmallCatalog, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    version = catalog_version()
    with django_capture_on_commit_callbacks(execute=True):
        catalog["flash"].topics.add(Topic.objects.get(slug="serving"))
    assert catalog_version() != version
    version = catalog_version()
    with django_capture_on_commit_callbacks(execute=True):
        Topic.objects.create(slug="scratch", name="Scratch").delete()
    assert catalog_version() != version


def test_the_version_changes_only_after_commit(
    catalog: SmallCatalog, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    version = catalog_version()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        Source.objects.get(slug="roofline").save()
    assert catalog_version() == version
    for callback in callbacks:
        callback()
    assert catalog_version() != version


def test_signed_in_readers_never_get_a_shared_page(
    catalog: SmallCatalog, reader: User, client: Client
) -> None:
    visit()
    client.force_login(reader)
    response = client.get("/")
    # Their own page (tests/library/test_reader_page_cache.py), never the anonymous one.
    assert response["X-Page-Cache"] == "miss"
    assert reader.public_name in response.content.decode()


def test_htmx_fragments_are_cached_apart_from_full_pages(catalog: SmallCatalog) -> None:
    full = visit("/sources/")
    fragment = visit("/sources/", **{"HX-Request": "true"})
    assert fragment["X-Page-Cache"] == "miss"
    assert visit("/sources/")["X-Page-Cache"] == "hit"
    assert visit("/sources/", **{"HX-Request": "true"}).content.count(b"<html") == (
        fragment.content.count(b"<html")
    )
    assert full.content.count(b"<html") == 1


def test_each_query_string_is_its_own_page(catalog: SmallCatalog) -> None:
    visit("/sources/?page=1")
    assert visit("/sources/?page=2")["X-Page-Cache"] == "miss"


def test_a_visitor_with_a_message_waiting_gets_a_fresh_page(catalog: SmallCatalog) -> None:
    visit()
    client = Client()
    # A message waiting in the cookie storage, as after logging out.
    response = client.get("/")
    storage = CookieStorage(RequestFactory().get("/"))
    storage.add(constants.SUCCESS, "You have signed out.")
    storage.update(response)
    client.cookies.update(response.cookies)
    page = client.get("/")
    assert "You have signed out." in page.content.decode()
    assert page.get("X-Page-Cache") != "hit"
    # And the message did not leak into the shared copy.
    assert "You have signed out." not in visit().content.decode()


def test_not_found_pages_are_not_cached(catalog: SmallCatalog) -> None:
    visit("/sources/nope/")
    assert visit("/sources/nope/").get("X-Page-Cache") != "hit"


def test_bump_is_available_for_bulk_writes(catalog: SmallCatalog) -> None:
    visit()
    Source.objects.update(summary="Bulk edited.")
    bump_catalog_version()
    assert visit()["X-Page-Cache"] == "miss"


def test_a_page_another_process_stored_is_served_from_the_shared_cache(
    catalog: SmallCatalog,
) -> None:
    visit("/sources/")
    process_pages.clear()  # as in a process that did not render it
    response = visit("/sources/")
    assert response["X-Page-Cache"] == "hit"
    assert b"csrfmiddlewaretoken" in response.content or b"x-csrftoken" in response.content


def test_this_process_never_serves_a_copy_kept_for_an_older_version(catalog: SmallCatalog) -> None:
    process_pages.clear()
    visit("/")
    key = next(iter(process_pages._pages))
    old_version, stale, _ = process_pages._pages[key]
    assert catalog_version() in old_version
    bump_catalog_version()
    assert process_pages.get(key, old_version) is stale
    response = visit("/")
    assert response["X-Page-Cache"] == "miss"
    new_version, fresh, _ = process_pages._pages[key]
    assert new_version != old_version and catalog_version() in new_version
    assert process_pages.get(key, old_version) is None
    assert fresh is not stale


def test_no_page_outlives_its_day(catalog: SmallCatalog, monkeypatch: pytest.MonkeyPatch) -> None:
    """Pages show ages in days ("12 days old"): a page is kept for the day it was rendered on."""
    visit("/sources/")
    assert visit("/sources/")["X-Page-Cache"] == "hit"
    tomorrow = timezone.localdate() + timedelta(days=1)
    monkeypatch.setattr(timezone, "localdate", lambda *args, **kwargs: tomorrow)
    assert visit("/sources/")["X-Page-Cache"] == "miss"


def test_the_process_copy_keeps_within_its_byte_budget(settings: Settings) -> None:
    settings.CATALOG_PAGE_MEMORY_BYTES = 1000
    pages = ProcessPages()
    for n in range(5):
        pages.put(f"k{n}", ("v",), (200, [], (b"x" * 300,), b""))
    assert pages._bytes <= 1000
    assert pages.get("k0", ("v",)) is None
    assert pages.get("k4", ("v",)) is not None
    pages.put("big", ("v",), (200, [], (b"x" * 2000,), b""))
    assert pages.get("big", ("v",)) is None


def test_a_hit_puts_this_visitors_values_in_every_slot(catalog: SmallCatalog) -> None:
    process_pages.clear()
    first = visit("/sources/")
    (_, (_, _, pieces, slots), _) = next(iter(process_pages._pages.values()))
    assert len(slots) >= 2 and b"".join(pieces) != first.content
    # Stored with placeholders, never with the first visitor's values.
    first_token = found(re.search(rb'"x-csrftoken": "([^"]+)"', first.content)).group(1)
    assert first_token not in b"".join(pieces)
    client = Client(enforce_csrf_checks=True)
    hit = client.get("/sources/")
    assert hit["X-Page-Cache"] == "hit"
    html = hit.content.decode()
    tokens = set(
        re.findall(r'(?:"x-csrftoken": "|name="csrfmiddlewaretoken" value=")([^"]+)"', html)
    )
    nonces = set(re.findall(r'nonce="([^"]*)"', html))
    assert len(tokens) == 1 and len(nonces) == 1
    assert f"'nonce-{nonces.pop()}'" in hit["Content-Security-Policy"]
    first_tokens = set(
        re.findall(
            r'(?:"x-csrftoken": "|name="csrfmiddlewaretoken" value=")([^"]+)"',
            first.content.decode(),
        )
    )
    assert tokens != first_tokens
