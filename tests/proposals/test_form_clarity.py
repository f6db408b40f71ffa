"""The proposal form says what it needs, and its duplicate check keeps drafts out of URLs."""

import re

import pytest
from django.test import Client

from accounts.models import User
from tests.hints import SmallCatalog, found

from .helpers import form_data

pytestmark = pytest.mark.django_db


def _label(page: str, field_id: str) -> str:
    match = re.search(rf'<label for="{field_id}">(.*?)</label>', page, re.S)
    assert match, f"no label for {field_id}"
    return re.sub(r"<[^>]+>", "", match.group(1)).strip()


def test_required_answers_are_marked_in_their_labels(
    signed_in: Client, small_catalog: SmallCatalog
) -> None:
    page = signed_in.get("/propose/").content.decode()
    assert _label(page, "id_url") == "URL (required)"
    assert _label(page, "id_title") == "Title (required)"
    assert _label(page, "id_mechanism") == "What mechanism or idea it teaches (required)"
    assert _label(page, "id_after_source") == "Belongs after (required for primary sources)"
    assert _label(page, "id_authors") == "Authors"
    assert re.search(r"<legend>Tier <span[^>]*>\(required\)</span></legend>", page)


def test_the_required_topics_section_starts_open(
    signed_in: Client, small_catalog: SmallCatalog
) -> None:
    page = signed_in.get("/propose/").content.decode()
    summary = found(
        re.search(
            r'<details class="form-row topics-choice"( open)?>\s*<summary>(.*?)</summary>',
            page,
            re.S,
        )
    )
    assert summary.group(1) == " open"
    assert 'Topics <span class="required-marker">(required)</span>' in summary.group(2)


def test_check_button_posts_the_draft(signed_in: Client, small_catalog: SmallCatalog) -> None:
    page = signed_in.get("/propose/").content.decode()
    button = found(re.search(r"<button[^>]*>Check for duplicates</button>", page)).group(0)
    assert 'formmethod="post"' in button
    assert 'formaction="/propose/check/"' in button


def test_posted_check_without_javascript_shows_the_form_with_what_was_typed(
    signed_in: Client, small_catalog: SmallCatalog
) -> None:
    small_catalog["flash"].url = "https://arxiv.org/abs/2205.14135"
    small_catalog["flash"].save()
    data = form_data(small_catalog, url="https://arxiv.org/pdf/2205.14135", mechanism="Typed words")
    response = signed_in.post("/propose/check/", data)
    page = response.content.decode()
    assert response.status_code == 200
    assert "Already in the catalog" in page
    assert 'href="/sources/flashattention/"' in page
    assert "Typed words" in page
    # The report the reader asked for takes focus when the page arrives.
    assert re.search(r'<div id="duplicate-check"[^>]* autofocus', page)


def test_posted_check_needs_the_csrf_token(reader: User, small_catalog: SmallCatalog) -> None:
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(reader)
    response = client.post("/propose/check/", {"url": "https://example.org/x"})
    assert response.status_code == 403


def test_get_check_interface_still_answers_with_links(
    signed_in: Client, small_catalog: SmallCatalog
) -> None:
    response = signed_in.get(
        "/propose/check/", {"url": "https://example.org/new", "title": "FlashAttention"}
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert 'href="/sources/flashattention/"' in page


def test_live_check_answer_is_announced_not_focused(
    signed_in: Client, small_catalog: SmallCatalog
) -> None:
    small_catalog["flash"].url = "https://arxiv.org/abs/2205.14135"
    small_catalog["flash"].save()
    response = signed_in.post(
        "/propose/check/",
        {"url": "https://arxiv.org/abs/2205.14135"},
        headers={"HX-Request": "true"},
    )
    page = response.content.decode()
    assert "<html" not in page
    assert 'data-announce="Already in the catalog: FlashAttention."' in page
    assert "autofocus" not in page


def test_fill_message_is_tied_to_the_url(signed_in: Client, small_catalog: SmallCatalog) -> None:
    response = signed_in.post("/propose/fill/", {"url": "ftp://nowhere"})
    page = response.content.decode()
    message = found(re.search(r'<p id="fill-result"[^>]*>', page)).group(0)
    assert 'data-clears-with="id_url"' in message
    assert "autofocus" in message
