"""Closeness in meaning (search/semantic.py): the catalog's latent index, how a described
query's partial matches use it, and what happens without it."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from bench.relevance import evaluate, judged_queries, search_ranker
from readinglist.pagecache import bump_catalog_version
from search import semantic
from search.page import search_sources
from search.parsing import SearchParams, parse_query
from tests.factories import SourceFactory


def stems(text):
    return parse_query(text).stems


# Two subjects, twelve sources each: paging the KV cache, and HBM bandwidth. "memory" is in both
# (two KV sources and four HBM ones), "paging" in two KV sources only.
KV = "kv cache blocks fragmentation"
HBM = "hbm bandwidth accelerators"
SUMMARIES = (
    [f"paging {KV}"] * 2 + [f"{KV} memory"] * 2 + [f"{HBM} memory"] * 4 + [KV] * 8 + [HBM] * 8
)


def subject_texts() -> tuple[list[int], list[str]]:
    return list(range(1, len(SUMMARIES) + 1)), SUMMARIES


@pytest.fixture
def two_dimensions(monkeypatch):
    # A latent space as wide as the catalog has subjects: the full 50 would keep every word
    # apart in a catalog of 24 sources, which is no test of what the dimensions share.
    monkeypatch.setattr(semantic, "DIMENSIONS", 2)


def test_a_source_of_the_query_s_subject_is_closer_than_one_sharing_a_word(two_dimensions):
    index = semantic.build_index(*subject_texts())
    assert index is not None
    nearest = index.nearest(stems("why is memory paging slow"))
    kv_with_memory = [nearest.get(pk, 0.0) for pk in (3, 4)]
    hbm_with_memory = [nearest.get(pk, 0.0) for pk in (5, 6, 7, 8)]
    # Both share only "memory" with the query; the KV ones are about what it describes.
    assert min(kv_with_memory) > max(hbm_with_memory)
    # A source of the subject with none of the query's words is still close.
    assert nearest.get(9, 0.0) > max(hbm_with_memory)


def test_nothing_is_near_words_the_catalog_lacks_or_a_catalog_too_small():
    index = semantic.build_index(*subject_texts())
    assert index is not None
    assert index.nearest(stems("quantum annealing")) == {}
    assert index.nearest(stems("how does it work")) == {}  # filler only
    assert semantic.build_index([1, 2], ["paging kv cache", "hbm bandwidth"]) is None
    assert semantic.build_index(list(range(30)), ["..."] * 30) is None


def test_nearest_keeps_the_closest_and_positive_only():
    index = semantic.build_index(*subject_texts())
    assert index is not None
    nearest = index.nearest(stems("paging kv cache"), limit=5)
    assert 0 < len(nearest) <= 5
    assert all(value > 0 for value in nearest.values())
    assert {1, 2} <= set(nearest)


@pytest.fixture
def subjects(db, tiers):
    return [
        SourceFactory(
            # Titles put the HBM sources first when nothing but the words decides.
            title=f"{'Cache layout' if KV in summary else 'Bandwidth study'} {number}",
            summary=summary,
            tier=tiers["core"],
        )
        for number, summary in enumerate(SUMMARIES)
    ]


def slugs(query: str) -> list[str]:
    return [source.slug for source in search_sources(SearchParams(q=query)).page.object_list]


def test_a_described_query_ranks_partial_matches_of_its_subject_first(two_dimensions, subjects):
    found = slugs("why is memory paging slow")
    kv_with_memory = {subjects[2].slug, subjects[3].slug}
    hbm_with_memory = {source.slug for source in subjects[4:8]}
    assert set(found[:2]) == {subjects[0].slug, subjects[1].slug}  # the rare word, "paging"
    assert set(found[2:4]) == kv_with_memory
    assert set(found[4:8]) == hbm_with_memory
    # Meaning only reorders what the words found.
    assert len(found) == 8


def test_without_the_index_the_words_alone_decide(two_dimensions, subjects, monkeypatch):
    monkeypatch.setattr(semantic, "trusted_catalog_version", lambda: None)  # the cache is down
    found = slugs("why is memory paging slow")
    assert set(found[2:6]) == {source.slug for source in subjects[4:8]}  # by title
    assert len(found) == 8


def statements(using: str = "default") -> int:
    with CaptureQueriesContext(connection) as ctx:
        semantic.catalog_index(using)
    return sum("catalog_source" in query["sql"] for query in ctx.captured_queries)


def test_a_process_builds_the_index_once_per_catalog_version(subjects):
    bump_catalog_version()
    assert statements() == 3  # the count, the topics, the sources
    assert statements() == 0
    assert semantic.catalog_index("default") is not None
    bump_catalog_version()  # any committed catalog change does this
    assert statements() == 3


def test_a_catalog_past_the_limit_is_not_indexed(subjects, monkeypatch):
    monkeypatch.setattr(semantic, "MAX_SOURCES", len(subjects) - 1)
    bump_catalog_version()
    assert semantic.catalog_index("default") is None
    assert semantic.similarities(stems("memory paging"), "default") == {}


@pytest.mark.slow
def test_meaning_lifts_the_judged_described_queries(shipped_catalog, monkeypatch):
    queries = judged_queries()
    with_meaning = evaluate(queries, search_ranker())["described"].ndcg
    monkeypatch.setattr(semantic, "catalog_index", lambda using: None)
    words_alone = evaluate(queries, search_ranker())["described"].ndcg
    assert with_meaning >= words_alone + 0.005
