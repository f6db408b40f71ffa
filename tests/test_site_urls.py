"""{% fixed_url %} and {% slug_url %} print what {% url %} prints, for the script prefix of the
moment."""

from collections.abc import Callable, Iterator

import pytest
from django.template import engines
from django.test import RequestFactory
from django.urls import NoReverseMatch, reverse, set_script_prefix
from django.utils.html import escape

from catalog.models import Source

TEMPLATE = (
    "{% load site_urls %}{% fixed_url 'pages:tier-detail' 'start-here' %}|"
    "{% fixed_url 'catalog:search-cite' 'bib' as cite %}{{ cite }}|{% fixed_url 'pages:home' %}"
)
EXPECTED = "{% url 'pages:tier-detail' 'start-here' %}|{% url 'catalog:search-cite' 'bib' %}|"
EXPECTED += "{% url 'pages:home' %}"


def render(source: str, **context: object) -> str:
    return engines["django"].from_string(source).render(context, RequestFactory().get("/"))


def test_fixed_urls_are_the_url_tags_urls() -> None:
    assert render(TEMPLATE) == render(EXPECTED) == "/tiers/start-here/|/sources/cite.bib|/"


@pytest.fixture
def prefix() -> Iterator[Callable[[str], None]]:
    yield set_script_prefix
    set_script_prefix("/")


def test_a_script_prefix_is_followed_not_remembered(prefix: Callable[[str], None]) -> None:
    render(TEMPLATE)
    prefix("/readinglist/")
    assert render(TEMPLATE) == render(EXPECTED)
    assert render(TEMPLATE).startswith("/readinglist/tiers/start-here/")


@pytest.mark.parametrize("slug", ["flashattention-2", "A_b-9"])
def test_slug_urls_are_the_url_tags_urls(slug: str, prefix: Callable[[str], None]) -> None:
    cards = "{% load site_urls %}{% slug_url 'pages:source-detail' slug %}|"
    cards += "{% slug_url 'library:bookmark' slug as save %}{{ save }}"
    for script_prefix in ("/", "/readinglist/"):
        prefix(script_prefix)
        expected = f"{escape(Source(slug=slug).get_absolute_url())}|"
        expected += escape(reverse("library:bookmark", args=[slug]))
        assert render(cards, slug=slug) == expected


def test_what_is_not_a_slug_is_refused_as_the_url_tag_refuses_it() -> None:
    for tag in ("url", "slug_url"):
        with pytest.raises(NoReverseMatch):
            render(f"{{% load site_urls %}}{{% {tag} 'pages:source-detail' 'two words' %}}")
