"""Anonymous catalog pages are served from the shared cache until the catalog changes."""

import re

import pytest
from django.contrib.messages import constants
from django.contrib.messages.storage.cookie import CookieStorage
from django.test import Client, RequestFactory

from catalog.caching import bump_catalog_version, catalog_version
from catalog.models import Source, Topic


def visit(url="/", **headers):
    return Client(enforce_csrf_checks=True).get(url, headers=headers)


@pytest.fixture
def catalog(small_catalog, django_capture_on_commit_callbacks):
    return small_catalog


def test_a_second_anonymous_visitor_gets_the_cached_page(catalog, django_assert_max_num_queries):
    first = visit()
    assert first["X-Page-Cache"] == "miss"
    with django_assert_max_num_queries(1):  # the catalog version and the page, in one read
        second = visit()
    assert second["X-Page-Cache"] == "hit"
    assert second.status_code == 200
    strip = re.compile(rb'("x-csrftoken": "|nonce="|value=")[^"]*"')
    assert strip.sub(b"", second.content) == strip.sub(b"", first.content)


def test_each_visitor_keeps_their_own_csrf_token_and_csp_nonce(catalog):
    visit()
    client = Client(enforce_csrf_checks=True)
    response = client.get("/")
    assert response["X-Page-Cache"] == "hit"
    html = response.content.decode()
    nonce = re.search(r'<script[^>]+nonce="([^"]+)"', html).group(1)
    assert f"'nonce-{nonce}'" in response["Content-Security-Policy"]
    token = re.search(r'"x-csrftoken": "([^"]+)"', html).group(1)
    # The token in the cached page works with this visitor's own cookie.
    assert "csrftoken" in response.cookies
    assert client.post("/accounts/logout/", HTTP_X_CSRFTOKEN=token).status_code != 403
    other = visit()
    assert re.search(r'"x-csrftoken": "([^"]+)"', other.content.decode()).group(1) != token


def test_an_edit_shows_at_once(catalog, django_capture_on_commit_callbacks):
    visit("/sources/flashattention/")
    flash = catalog["flash"]
    with django_capture_on_commit_callbacks(execute=True):
        flash.title = "FlashAttention, revised"
        flash.save()
    response = visit("/sources/flashattention/")
    assert response["X-Page-Cache"] == "miss"
    assert "FlashAttention, revised" in response.content.decode()


def test_many_to_many_and_delete_changes_bump_the_version(
    catalog, django_capture_on_commit_callbacks
):
    version = catalog_version()
    with django_capture_on_commit_callbacks(execute=True):
        catalog["flash"].topics.add(Topic.objects.get(slug="serving"))
    assert catalog_version() != version
    version = catalog_version()
    with django_capture_on_commit_callbacks(execute=True):
        Topic.objects.create(slug="scratch", name="Scratch").delete()
    assert catalog_version() != version


def test_the_version_changes_only_after_commit(catalog, django_capture_on_commit_callbacks):
    version = catalog_version()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        Source.objects.filter(slug="roofline").first().save()
    assert catalog_version() == version
    for callback in callbacks:
        callback()
    assert catalog_version() != version


def test_signed_in_readers_never_get_a_shared_page(catalog, reader, client):
    visit()
    client.force_login(reader)
    response = client.get("/")
    assert "X-Page-Cache" not in response
    assert reader.public_name in response.content.decode()


def test_htmx_fragments_are_cached_apart_from_full_pages(catalog):
    full = visit("/sources/")
    fragment = visit("/sources/", **{"HX-Request": "true"})
    assert fragment["X-Page-Cache"] == "miss"
    assert visit("/sources/")["X-Page-Cache"] == "hit"
    assert visit("/sources/", **{"HX-Request": "true"}).content.count(b"<html") == (
        fragment.content.count(b"<html")
    )
    assert full.content.count(b"<html") == 1


def test_each_query_string_is_its_own_page(catalog):
    visit("/sources/?page=1")
    assert visit("/sources/?page=2")["X-Page-Cache"] == "miss"


def test_a_visitor_with_a_message_waiting_gets_a_fresh_page(catalog):
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


def test_not_found_pages_are_not_cached(catalog):
    visit("/sources/nope/")
    assert visit("/sources/nope/").get("X-Page-Cache") != "hit"


def test_bump_is_available_for_bulk_writes(catalog):
    visit()
    Source.objects.update(summary="Bulk edited.")
    bump_catalog_version()
    assert visit()["X-Page-Cache"] == "miss"
