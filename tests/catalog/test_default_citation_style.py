"""Setting the default citation style: readers only, known styles only, back to a local page."""

import pytest
from django.test import Client

from accounts.models import User
from catalog.models import CitationPreference
from tests.hints import SmallCatalog

pytestmark = pytest.mark.django_db
URL = "/cite/default-style/"


def test_a_visitor_is_sent_to_log_in(client: Client) -> None:
    response = client.post(URL, {"style": "ieee", "next": "/sources/flashattention/cite/"})
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")
    assert not CitationPreference.objects.exists()


def test_a_reader_sets_and_changes_their_default(
    client: Client, reader: User, small_catalog: SmallCatalog
) -> None:
    client.force_login(reader)
    back = "/sources/flashattention/cite/"
    assert client.post(URL, {"style": "ieee", "next": back})["Location"] == back
    assert client.post(URL, {"style": "acm", "next": back})["Location"] == back
    assert CitationPreference.objects.get(user=reader).style == "acm"
    page = client.get(back)
    assert '<h2 id="reference-heading">ACM</h2>' in page.text
    assert "ACM is your default citation style" in page.text


def test_an_unknown_style_or_foreign_next_changes_nothing(client: Client, reader: User) -> None:
    client.force_login(reader)
    response = client.post(URL, {"style": "mla", "next": "https://evil.example/"})
    assert response["Location"] == "/library/export/"
    assert not CitationPreference.objects.exists()


def test_get_is_refused(client: Client, reader: User) -> None:
    client.force_login(reader)
    assert client.get(URL).status_code == 405
