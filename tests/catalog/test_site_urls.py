"""{% fixed_url %} prints what {% url %} prints, for the prefix and URLconf of the moment."""

import pytest
from django.template import engines
from django.test import RequestFactory
from django.urls import set_script_prefix

TEMPLATE = (
    "{% load site_urls %}{% fixed_url 'catalog:tier-detail' 'start-here' %}|"
    "{% fixed_url 'catalog:search-cite' 'bib' as cite %}{{ cite }}|{% fixed_url 'catalog:home' %}"
)
EXPECTED = "{% url 'catalog:tier-detail' 'start-here' %}|{% url 'catalog:search-cite' 'bib' %}|"
EXPECTED += "{% url 'catalog:home' %}"


def render(source):
    return engines["django"].from_string(source).render({}, RequestFactory().get("/"))


def test_fixed_urls_are_the_url_tags_urls():
    assert render(TEMPLATE) == render(EXPECTED) == "/tiers/start-here/|/sources/cite.bib|/"


@pytest.fixture
def prefix():
    yield set_script_prefix
    set_script_prefix("/")


def test_a_script_prefix_is_followed_not_remembered(prefix):
    render(TEMPLATE)
    prefix("/readinglist/")
    assert render(TEMPLATE) == render(EXPECTED)
    assert render(TEMPLATE).startswith("/readinglist/tiers/start-here/")
