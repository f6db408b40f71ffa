"""A multi-word query that many sources fully match puts first the source that has the words
side by side (its keyword is the query), on SQLite as on PostgreSQL, rather than ordering the
full matches by tier alone."""

import pytest

from search.page import search_sources
from search.parsing import SearchParams
from tests.factories import SourceFactory
from tests.hints import Tiers

pytestmark = pytest.mark.django_db


def test_the_source_whose_keyword_is_the_query_comes_first(tiers: Tiers) -> None:
    for number in range(12):
        # Sources of the same tier that have both words, apart, and come first by title.
        SourceFactory(
            title=f"Serving engine {number}",
            summary="Caching of many things, and a prefix tree for routing.",
            tier=tiers["core"],
        )
    keyworded = SourceFactory(
        title="Zero recompute across requests",
        summary="Keeps computed attention state for later requests.",
        keywords="prefix caching;shared prompt reuse",
        tier=tiers["core"],
    )
    page = search_sources(SearchParams(q="prefix caching"))
    assert page.page.object_list[0].pk == keyworded.pk
