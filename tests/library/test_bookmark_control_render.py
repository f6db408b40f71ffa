"""The bookmark control each process remembers is exactly what its template renders."""

import re

import pytest
from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.template import engines
from django.template.loader import get_template
from django.test import RequestFactory
from pytest_django import Settings

from accounts.models import User
from catalog.models import Source
from library import reading
from library.controls import CONTROL_TEMPLATE
from library.models import Bookmark
from tests.hints import SmallCatalog, found

pytestmark = pytest.mark.django_db

TAG = engines["django"].from_string(
    "{% load reading %}{% for s in sources %}{% bookmark_control s compact=compact %}{% endfor %}"
)


def without_tokens(html: str) -> str:
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html)


def direct(source: Source, request: HttpRequest, status: str, compact: bool) -> str:
    """The control rendered straight from its template, as the inclusion tag used to."""
    return get_template(CONTROL_TEMPLATE).render(
        {
            "source": source,
            "status": status,
            "choices": Bookmark.Status.choices,
            "next": request.get_full_path(),
            "csrf_token": get_token(request),
            "compact": compact,
        }
    )


@pytest.mark.parametrize("compact", [False, True])
def test_remembered_controls_match_the_template_for_every_state(
    reader: User, small_catalog: SmallCatalog, settings: Settings, compact: bool
) -> None:
    settings.DEBUG = False  # the remembering path
    sources = [small_catalog["flash"], *small_catalog["path"]]
    statuses = ["", Bookmark.Status.TO_READ, Bookmark.Status.READING, Bookmark.Status.READ]
    for status, source in zip(statuses, sources, strict=False):
        if status:
            Bookmark.objects.create(user=reader, source=source, status=status)
    for _ in range(2):  # rendered, then remembered
        request = RequestFactory().get("/sources/?q=flash&page=2")
        request.user = reader
        html = TAG.render({"sources": sources, "compact": compact}, request)
        states = reading.request_states(request)
        expected = "".join(direct(s, request, states.get(s.pk, ""), compact) for s in sources)
        assert "csrfmiddlewaretoken" in html
        assert without_tokens(html) == without_tokens(expected)


def test_each_request_gets_its_own_csrf_token(
    reader: User, small_catalog: SmallCatalog, settings: Settings
) -> None:
    settings.DEBUG = False
    source = small_catalog["flash"]
    tokens = []
    for _ in range(2):
        request = RequestFactory().get("/")
        request.user = reader
        html = TAG.render({"sources": [source], "compact": False}, request)
        tokens.append(
            found(re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)).group(1)
        )
        assert "Slot" not in html
    assert tokens[0] != tokens[1]


def test_a_renamed_source_is_not_shown_under_its_old_title(
    reader: User, small_catalog: SmallCatalog, settings: Settings
) -> None:
    settings.DEBUG = False
    source = small_catalog["flash"]
    request = RequestFactory().get("/")
    request.user = reader
    TAG.render({"sources": [source], "compact": False}, request)
    source.title = "FlashAttention-4"
    html = TAG.render({"sources": [source], "compact": False}, request)
    assert "FlashAttention-4" in html
