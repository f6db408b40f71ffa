"""The paraphrase set (needs in words the catalog never uses) and the needs the catalog does not
cover: what they must be, and how often the page says that nothing answers them well."""

import tomllib

import pytest
from django.conf import settings

from bench.relevance import (
    FRESH_QUERIES,
    HELDOUT_QUERIES,
    JUDGED_QUERIES,
    PARAPHRASE_QUERIES,
    UNCOVERED_QUERIES,
    evaluate,
    judged_queries,
    search_ranker,
)
from search.described import document_stems, query_stems

CATALOG = settings.BASE_DIR / "catalog" / "data" / "catalog.toml"
# How often the page may say that nothing answers a need the catalog covers, and must say it
# for one it does not (docs/search.md, "No good answer").
MAX_FLAGGED_COVERED = 0.03
MIN_FLAGGED_UNCOVERED = 0.8


def catalog_texts() -> dict[str, str]:
    """{slug: title, aliases, summary and keywords} of every shipped source."""
    with CATALOG.open("rb") as file:
        sources = tomllib.load(file)["sources"]
    return {
        source["slug"]: " ".join(
            [
                source["title"],
                " ".join(source.get("aliases", [])),
                source.get("summary", ""),
                " ".join(source.get("keywords", [])),
            ]
        )
        for source in sources
    }


GENERIC_STEMS = set(query_stems("one several make use type kind sort"))


def test_paraphrases_share_no_word_stem_with_the_sources_that_answer_them() -> None:
    texts = catalog_texts()
    queries = judged_queries(PARAPHRASE_QUERIES)
    assert len(queries) >= 40
    shared = {}
    for query in queries:
        assert query.grades and set(query.grades) <= set(texts), query.text
        # Words any sentence may hold ("one", "make", "several") count in search but say nothing
        # of what a source is about, so sharing them does not make a paraphrase a rewording.
        wanted = set(query_stems(query.text)) - GENERIC_STEMS
        for slug in query.grades:
            if common := wanted & set(document_stems(texts[slug])):
                shared[(query.text, slug)] = sorted(common)
    assert shared == {}


def test_the_uncovered_needs_are_at_least_thirty_with_no_relevant_source() -> None:
    queries = judged_queries(UNCOVERED_QUERIES)
    assert len(queries) >= 30
    assert all(query.grades == {} for query in queries)


@pytest.mark.slow
@pytest.mark.django_db
def test_the_page_says_so_for_uncovered_needs_and_almost_never_for_covered_ones(
    shipped_catalog: None,
) -> None:
    uncovered = evaluate(judged_queries(UNCOVERED_QUERIES), search_ranker())["uncovered"]
    assert uncovered.flagged_rate >= MIN_FLAGGED_UNCOVERED
    covered = [
        query
        for path in (JUDGED_QUERIES, HELDOUT_QUERIES, FRESH_QUERIES)
        for query in judged_queries(path)
        if query.group != "navigational"
    ]
    flagged = evaluate(covered, search_ranker())["described"]
    assert flagged.flagged_rate <= MAX_FLAGGED_COVERED
