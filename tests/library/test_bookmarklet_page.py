"""/save/bookmarklet/ explains dragging the bookmarklet and gives phones an address to copy."""

import re

import pytest
from django.test import Client
from pytest_django import Settings

from tests.hints import found

pytestmark = pytest.mark.django_db


def test_the_page_explains_dragging_it_to_the_bookmarks_bar(
    client: Client, settings: Settings
) -> None:
    settings.SITE_DOMAIN = "reading.example"
    page = client.get("/save/bookmarklet/").content.decode()
    assert "Drag it to your bookmarks bar" in page
    assert "The button does nothing on this page" in page
    # The bookmarklet names the explanation, so a screen reader hears it with the link.
    link = found(re.search(r'<a id="bookmarklet"[^>]*>', page)).group(0)
    assert 'aria-describedby="bookmarklet-drag"' in link
    assert 'id="bookmarklet-drag"' in page


def test_phones_get_the_share_address_to_copy(client: Client, settings: Settings) -> None:
    settings.SITE_DOMAIN = "reading.example"
    page = client.get("/save/bookmarklet/").content.decode()
    assert "On a phone" in page
    field = found(re.search(r'<input id="share-url"[^>]*>', page)).group(0)
    assert 'value="http://reading.example/save/?url="' in field
    assert "readonly" in field
    assert '<label for="share-url">' in page
    assert 'href="http://reading.example/save/?url=https%3A%2F%2Farxiv.org' in page
