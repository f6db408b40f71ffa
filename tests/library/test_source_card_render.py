"""The source card each process remembers is exactly what its template renders, for every change
of what it shows."""

import re
from datetime import date, timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.handlers.wsgi import WSGIRequest
from django.http import HttpRequest
from django.middleware.csrf import (  # type: ignore[attr-defined]  # private, not in the stubs
    _unmask_cipher_token,
    get_token,
)
from django.template import engines
from django.template.loader import get_template
from django.test import RequestFactory
from django.utils import timezone
from django.utils.safestring import mark_safe
from pytest_django import Settings

from accounts.models import User
from catalog.models import Source
from library.models import Bookmark
from library.templatetags.reading import CARD_TEMPLATE, remembered_cards
from tests.hints import SmallCatalog, Tiers, found

pytestmark = pytest.mark.django_db

TAG = engines["django"].from_string(
    "{% load reading %}{% for s in sources %}"
    "{% source_card s label=label snippet=snippet hide_summary=hide %}{% endfor %}"
)


@pytest.fixture(autouse=True)
def remembering(settings: Settings) -> None:
    settings.DEBUG = False  # DEBUG renders every card afresh


def page_request(user: User | AnonymousUser, path: str = "/sources/?q=flash") -> WSGIRequest:
    request = RequestFactory().get(path)
    request.user = user
    get_token(request)
    return request


def render(
    sources: list[Source],
    request: HttpRequest,
    label: str = "",
    snippet: str = "",
    hide: bool = False,
) -> str:
    context = {"sources": sources, "label": label, "snippet": snippet, "hide": hide}
    return TAG.render(context, request)


def direct(
    source: Source,
    request: HttpRequest,
    label: str = "",
    snippet: str = "",
    hide: bool = False,
) -> str:
    """The card straight from its template, as the include used to render it."""
    context = {"source": source, "label": label, "snippet": snippet, "hide_summary": hide}
    return get_template(CARD_TEMPLATE).render(context, request)


def without_tokens(html: str) -> str:
    return re.sub(r'("x-csrftoken": "|value=")[A-Za-z0-9]{32,64}"', "", html)


def secret_in(html: str) -> str:
    """The CSRF secret behind the (masked, so different each time) token in a card."""
    return _unmask_cipher_token(
        found(re.search(r'csrfmiddlewaretoken" value="([^"]+)"', html)).group(1)
    )


def secret_of(request: HttpRequest) -> str:
    return _unmask_cipher_token(get_token(request))


def test_remembered_cards_match_the_template(reader: User, small_catalog: SmallCatalog) -> None:
    sources = [small_catalog["flash"], *small_catalog["path"]]
    Bookmark.objects.create(user=reader, source=sources[1], status=Bookmark.Status.READING)
    marked = mark_safe("<mark>Flash</mark>Attention")
    for label, snippet, hide in [("", "", False), (marked, marked, True)]:
        for _ in range(2):  # rendered, then remembered
            request = page_request(reader)
            html = render(sources, request, label, snippet, hide)
            expected = "".join(direct(s, request, label, snippet, hide) for s in sources)
            assert without_tokens(html) == without_tokens(expected)
            assert secret_in(html) == secret_of(request)


def test_a_changed_source_or_tier_shows_at_once(
    reader: User, small_catalog: SmallCatalog, tiers: Tiers
) -> None:
    source = small_catalog["flash"]
    render([source], page_request(reader))
    source.title = "FlashAttention-4"
    source.summary = "A new summary."
    assert "FlashAttention-4" in render([source], page_request(reader))
    assert "A new summary." in render([source], page_request(reader))
    source.tier = tiers["frontier"]
    source.verified_on = timezone.localdate() - timedelta(days=3)
    html = render([source], page_request(reader))
    assert tiers["frontier"].name in html and "3 days old" in html


def test_the_age_badge_follows_the_date(
    reader: User, small_catalog: SmallCatalog, tiers: Tiers, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = small_catalog["flash"]
    source.tier, source.verified_on = tiers["frontier"], date(2026, 1, 1)
    monkeypatch.setattr(timezone, "localdate", lambda *args: date(2026, 1, 11))
    assert "10 days old" in render([source], page_request(reader))
    monkeypatch.setattr(timezone, "localdate", lambda *args: date(2026, 1, 12))
    assert "11 days old" in render([source], page_request(reader))


def test_each_reader_sees_their_own_status_and_token(
    reader: User, other_reader: User, small_catalog: SmallCatalog
) -> None:
    source = small_catalog["flash"]
    Bookmark.objects.create(user=reader, source=source, status=Bookmark.Status.READ)
    mine, theirs = page_request(reader), page_request(other_reader)
    html_mine, html_theirs = render([source], mine), render([source], theirs)
    assert without_tokens(html_mine) == without_tokens(direct(source, mine))
    assert without_tokens(html_theirs) == without_tokens(direct(source, theirs))
    assert html_mine.count('aria-pressed="true"') == 1
    assert 'aria-pressed="true"' not in html_theirs
    assert secret_in(html_mine) == secret_of(mine)
    assert secret_in(html_theirs) == secret_of(theirs) != secret_of(mine)


def test_plain_text_that_looks_like_markup_stays_escaped(
    reader: User, small_catalog: SmallCatalog
) -> None:
    source = small_catalog["flash"]
    render([source], page_request(reader), label=mark_safe("<b>x</b>"))
    html = render([source], page_request(reader), label="<b>x</b>")
    assert "&lt;b&gt;x&lt;/b&gt;" in html and "<b>x</b>" not in html


@pytest.mark.parametrize("signed_in", [True, False])
def test_one_remembered_card_serves_every_page_and_query(
    signed_in: bool, reader: User, small_catalog: SmallCatalog
) -> None:
    """A card is remembered once per source: each page puts in its own way back, marked title
    and snippet, escaped as the template escapes them."""
    source = small_catalog["flash"]
    user = reader if signed_in else AnonymousUser()
    remembered_cards._cards.clear()
    pages = [
        ("/sources/?q=flash", mark_safe("<mark>Flash</mark>Attention"), "plain <b> & more"),
        ("/sources/?q=io&sort=title", "Fl<a>sh", mark_safe("an <mark>IO</mark>-aware kernel")),
    ]
    for path, label, snippet in pages:
        request = page_request(user, path)
        html = render([source], request, label, snippet)
        assert without_tokens(html) == without_tokens(direct(source, request, label, snippet))
        assert secret_in(html) == secret_of(request)
    assert len(remembered_cards._cards) == 1
    assert 'value="/sources/?q=io&amp;sort=title#' in html
    assert "Fl&lt;a&gt;sh" in html and "an <mark>IO</mark>-aware kernel" in html
