"""Closeness in meaning (search/semantic.py): the catalog's latent index, how a described
query's partial matches use it, and what happens without it."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from pytest_django import DjangoCaptureOnCommitCallbacks

from bench.relevance import evaluate, judged_queries, search_ranker
from catalog.models import Source
from readinglist.pagecache import bump_catalog_version
from search import index_updates, semantic
from search.page import search_sources
from search.parsing import SearchParams, parse_query
from search.tasks import rebuild_latent_index
from tests.factories import SourceFactory
from tests.hints import Tiers


def stems(text: str) -> tuple[str, ...]:
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
def two_dimensions(monkeypatch: pytest.MonkeyPatch) -> None:
    # A latent space as wide as the catalog has subjects: the full 50 would keep every word
    # apart in a catalog of 24 sources, which is no test of what the dimensions share.
    monkeypatch.setattr(semantic, "DIMENSIONS", 2)


def test_a_source_of_the_query_s_subject_is_closer_than_one_sharing_a_word(
    two_dimensions: None,
) -> None:
    index = semantic.build_index(*subject_texts())
    assert index is not None
    nearest = index.nearest(stems("why is memory paging slow"))
    kv_with_memory = [nearest.get(pk, 0.0) for pk in (3, 4)]
    hbm_with_memory = [nearest.get(pk, 0.0) for pk in (5, 6, 7, 8)]
    # Both share only "memory" with the query; the KV ones are about what it describes.
    assert min(kv_with_memory) > max(hbm_with_memory)
    # A source of the subject with none of the query's words is still close.
    assert nearest.get(9, 0.0) > max(hbm_with_memory)


def test_nothing_is_near_words_the_catalog_lacks_or_a_catalog_too_small() -> None:
    index = semantic.build_index(*subject_texts())
    assert index is not None
    assert index.nearest(stems("quantum annealing")) == {}
    assert index.nearest(stems("how does it work")) == {}  # filler only
    assert semantic.build_index([1, 2], ["paging kv cache", "hbm bandwidth"]) is None
    assert semantic.build_index(list(range(30)), ["..."] * 30) is None


def test_nearest_keeps_the_closest_and_positive_only() -> None:
    index = semantic.build_index(*subject_texts())
    assert index is not None
    nearest = index.nearest(stems("paging kv cache"), limit=5)
    assert 0 < len(nearest) <= 5
    assert all(value > 0 for value in nearest.values())
    assert {1, 2} <= set(nearest)


@pytest.fixture
def subjects(db: None, tiers: Tiers) -> list[Source]:
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


def test_a_described_query_ranks_partial_matches_of_its_subject_first(
    two_dimensions: None, subjects: list[Source]
) -> None:
    found = slugs("why is memory paging slow")
    kv_with_memory = {subjects[2].slug, subjects[3].slug}
    hbm_with_memory = {source.slug for source in subjects[4:8]}
    assert set(found[:2]) == {subjects[0].slug, subjects[1].slug}  # the rare word, "paging"
    assert set(found[2:4]) == kv_with_memory
    assert set(found[4:8]) == hbm_with_memory
    # Meaning only reorders what the words found.
    assert len(found) == 8


def test_without_the_index_the_words_alone_decide(
    two_dimensions: None, subjects: list[Source], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(semantic, "trusted_catalog_version", lambda: None)  # the cache is down
    found = slugs("why is memory paging slow")
    assert set(found[2:6]) == {source.slug for source in subjects[4:8]}  # by title
    assert len(found) == 8


def statements(using: str = "default") -> tuple[int, int]:
    """(statements on the sources, statements on the stored index) a process's index costs."""
    with CaptureQueriesContext(connection) as ctx:
        semantic.catalog_index(using)
    sql = [query["sql"] for query in ctx.captured_queries]
    return sum("catalog_source" in s for s in sql), sum("search_latentindex" in s for s in sql)


def test_a_process_reads_the_stored_index_once_per_catalog_version(
    subjects: list[Source], monkeypatch: pytest.MonkeyPatch
) -> None:
    bump_catalog_version()
    # Nothing stored yet (no worker ran): the first reader builds it once and stores it.
    built, stored = statements()
    assert built == 3 and stored >= 2  # the count, the topics, the sources; read and store
    assert statements() == (0, 0)
    bump_catalog_version()  # any committed catalog change does this
    # The worker has not rebuilt yet: the stored index serves, read in one statement.
    assert statements() == (0, 1)
    rebuild_latent_index.call()  # what the worker runs after the change
    monkeypatch.setattr(semantic, "_kept", {})  # a fresh process
    assert statements() == (0, 1)
    assert semantic.catalog_index("default") is not None


def test_a_catalog_change_enqueues_one_rebuild_when_it_commits(
    subjects: list[Source],
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    enqueued = []

    class Task:
        def enqueue(self) -> None:
            enqueued.append(1)

    monkeypatch.setattr(index_updates, "rebuild_latent_index", Task())
    # The fixture's sources were saved in the test's own transaction, whose commit never runs.
    monkeypatch.setattr(index_updates._local, "pending", None, raising=False)
    with django_capture_on_commit_callbacks(execute=True):
        subjects[0].summary = "paging kv cache blocks"
        subjects[0].save()
        subjects[1].topics.clear()
    assert enqueued == [1]
    with django_capture_on_commit_callbacks(execute=True):
        subjects[0].save(update_fields=["link_status"])  # nothing the index reads
    assert enqueued == [1]


def test_the_stored_index_is_the_index_built(subjects: list[Source]) -> None:
    built = semantic.build_index(*semantic.source_texts("default"))
    assert built is not None
    again = semantic.SemanticIndex.from_bytes(built.to_bytes())
    query = stems("why is memory paging slow")
    assert again.nearest(query) == built.nearest(query)
    assert again.vocabulary == built.vocabulary


def test_a_catalog_past_the_limit_is_not_indexed(
    subjects: list[Source], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(semantic, "MAX_SOURCES", len(subjects) - 1)
    bump_catalog_version()
    assert semantic.catalog_index("default") is None
    assert semantic.similarities(stems("memory paging"), "default") == {}


@pytest.mark.slow
def test_meaning_lifts_the_judged_described_queries(
    shipped_catalog: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    queries = judged_queries()
    with_meaning = evaluate(queries, search_ranker())["described"].ndcg
    monkeypatch.setattr(semantic, "catalog_index", lambda using: None)
    words_alone = evaluate(queries, search_ranker())["described"].ndcg
    assert with_meaning >= words_alone + 0.005
