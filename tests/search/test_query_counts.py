"""The search page runs a small, constant number of queries whatever the catalog size."""

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from pytest_django import DjangoAssertNumQueries, Settings

from tests.hints import Grow, Response

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _memory_cache(settings: Settings) -> None:
    # Count the search's own queries, not those of a database-backed page cache.
    memory = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    settings.CACHES = {"default": memory, "pages": {**memory, "LOCATION": "pages"}}
    # Every request renders, and the catalog version stays: a process builds the catalog's
    # semantic index once per version (search/semantic.py), not once per page.
    settings.CATALOG_PAGE_CACHE = False


# Topic, tier and list lookups (3), corrections (1, PostgreSQL), facets (1), the page's ids (1,
# SQLite; on PostgreSQL the facet statement picks them), the page's sources (1; on PostgreSQL
# with their snippets), "did you mean" (1, only when nothing matched), the catalog gap's count
# (1, only when nothing answers well: search/gaps.py).
MAX_QUERIES = 9


def warm(client: Client, url: str) -> None:
    """The first described query after a catalog change builds the index: not counted."""
    client.get(url)


def run(client: Client, url: str) -> tuple[int, Response]:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200
    return len(ctx.captured_queries), response


@pytest.mark.parametrize(
    "url",
    [
        "/sources/",
        "/sources/?page=2&sort=newest",
        "/sources/?q=source+number",
        "/sources/?q=numbr",
        "/sources/?q=source&topic=bulk&tier=core&kind=paper&year=2020-2029&list={list}",
        "/sources/?q=nothing+matches+this+zzzz&topic=bulk",
        "/sources/?q=why+is+my+source+slow+zzzz",
        "/sources/?q=sourse+numbr+zzzz",
    ],
    ids=[
        "browse",
        "page-2",
        "query",
        "typo",
        "query-and-every-filter",
        "no-results",
        "partial",
        "typos-partial",
    ],
)
def test_search_queries_are_flat_between_20_and_400_sources(
    client: Client,
    many_sources: Grow,
    url: str,
    django_assert_max_num_queries: DjangoAssertNumQueries,
) -> None:
    sources = many_sources(20)
    url = url.format(list=sources[0].entries.get().section.reading_list.slug)
    warm(client, url)
    small, response = run(client, url)
    assert small <= MAX_QUERIES
    many_sources(380)
    warm(client, url)
    with django_assert_max_num_queries(small):
        _, response = run(client, url)
    if "zzzz" not in url and "numbr" not in url:  # typos find results on PostgreSQL only
        assert response.content.decode().count('class="card source-card') > 0


def search_statements(client: Client, url: str) -> tuple[list[str], list[str], Response]:
    """The statements a search ran: what it read before matching (the tiers and the sources the
    query names, with the vocabulary and the counts: postgres_match.lookup_sql()), and its facet
    statements (facets.FACET_SQL)."""
    cache.clear()
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200
    sql = [q["sql"] for q in ctx.captured_queries]
    lookups = [s for s in sql if "search_names &&" in s]
    facets = [s for s in sql if "g (tier_id, kind, year, n)" in s]
    return lookups, facets, response


@pytest.mark.postgres
def test_a_thin_page_costs_no_more_statements_than_a_full_one(
    client: Client, many_sources: Grow
) -> None:
    many_sources(30)  # every title is "Source number N", which "number source" does not name
    lookups, facets, response = search_statements(client, "/sources/?q=number+source")
    assert (len(lookups), len(facets)) == (1, 1)
    # Every source has both words: the counts stopped at the all-words match.
    assert "No source has every word" not in response.content.decode()
    assert response.content.decode().count('class="card source-card') == 25
    lookups, facets, response = search_statements(client, "/sources/?q=why+is+my+source+slow+zzzz")
    # The same statement counted the words and found the match thin: the any-word match is
    # ranked in the one facet statement.
    assert (len(lookups), len(facets)) == (1, 1)
    assert "WITH " in lookups[0] and "catalog_search_word" in lookups[0]
    # The partial matches share little of what was asked ("zzzz" no source has): the page says
    # that nothing answers it well, above them.
    assert 'id="no-good-match"' in response.content.decode()
    assert response.content.decode().count('class="card source-card') == 25
