"""Broad topic words on the shipped catalog: trusted and original sources before narrower works.

For a word many sources share, the source that introduced the mechanism and the Start-here and
core sources come before narrower works that merely mention the word; originals come before
their successors when equally matched. The word lists are derived from the catalog, not chosen.

Tests marked `postgres` rely on weighted full-text ranking; the SQLite backend orders by the
words found in the title or aliases, then the prior, which the rules above hold for too.
"""

import re

import pytest

from catalog.catalog_file import read_catalog
from search.names import normalised, source_names
from search.page import matching_sources, search_sources
from search.parsing import SearchParams

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

CATALOG = read_catalog()
SOURCES = [s for s in CATALOG["sources"] if s["status"] == "published"]
BY_SLUG = {s["slug"]: s for s in SOURCES}
NAMES = {s["slug"]: source_names(s["title"], s["aliases"]) for s in SOURCES}
TRUSTED_TIERS = {"start-here", "core"}
STOP_WORDS = {"the", "and", "for", "with", "from", "via", "into", "using", "are", "all", "you"}
STOP_WORDS |= {"your", "how", "not", "its"}


def top_slugs(query: str, count: int = 10) -> list[str]:
    return [source.slug for source in search_sources(SearchParams(q=query)).page][:count]


def words(text: str) -> set[str]:
    return set(re.findall(r"[a-z][a-z0-9]{2,}", text.lower())) - STOP_WORDS


def name_words(source: dict) -> set[str]:
    """The words a source is called by: its title and aliases."""
    return words(source["title"]) | words(source["aliases"].replace(",", " "))


def names_a_source(word: str) -> bool:
    """ "triton", "vllm": a name, which navigational search answers, not a topic."""
    key = normalised(word)
    return any(key in names for names in NAMES.values())


def broad_words() -> list[str]:
    """Words in the titles or aliases of two or more sources, one of them Start-here or core,
    and the words of topic names that a Start-here or core source is called by."""
    trusted = set().union(*(name_words(s) for s in SOURCES if s["tier"] in TRUSTED_TIERS))
    shared = {w for w in trusted if sum(w in name_words(s) for s in SOURCES) >= 2}
    topic_words = set().union(*(words(t["name"]) for t in CATALOG["topics"])) & trusted
    return sorted(w for w in shared | topic_words if not names_a_source(w))


def acceptable_first(slug: str, word: str) -> bool:
    """A Start-here or core source, or the paper that introduced a mechanism it is named for."""
    source = BY_SLUG[slug]
    if source["tier"] in TRUSTED_TIERS:
        return True
    return source["basis"] == "mechanism-paper" and word in name_words(source)


def test_a_broad_word_puts_a_trusted_or_originating_source_first(shipped_catalog: None) -> None:
    candidates = broad_words()
    assert len(candidates) >= 50
    assert {"scheduling", "memory", "attention"} <= set(candidates)
    failed = [
        f"{word!r}: {top}"
        for word in candidates
        if (top := top_slugs(word, 3)) and not acceptable_first(top[0], word)
    ]
    assert not failed


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("attention", {"attention-is-all-you-need"}),
        ("scheduling", {"orca"}),
        ("disaggregation", {"distserve", "splitwise"}),
        ("mixture of experts", {"sparsely-gated-moe"}),
    ],
)
def test_the_mechanism_source_comes_first(
    shipped_catalog: None, query: str, expected: set[str]
) -> None:
    assert top_slugs(query, 1)[0] in expected


@pytest.mark.postgres
@pytest.mark.parametrize(
    "query", ["memory", "gpu", "amd", "profiling", "experts", "traces", "tensor", "cache"]
)
def test_a_broad_word_does_not_put_a_peripheral_source_first(
    shipped_catalog: None, query: str
) -> None:
    """Frontier and further-reading sources that merely mention the word come after."""
    top = top_slugs(query, 1)
    assert top and BY_SLUG[top[0]]["tier"] in TRUSTED_TIERS, top


ACRONYM_PLURAL = re.compile(r"\b([A-Z]{2,}[0-9]*)s\b")


def test_an_acronym_in_the_singular_finds_titles_with_its_plural(shipped_catalog: None) -> None:
    """ "gpu" finds "Benchmarking GPUs…": the stemmer keeps 'gpus' whole."""
    queries = {
        (match.group(1), s["slug"])
        for s in SOURCES
        for match in ACRONYM_PLURAL.finditer(s["title"])
    }
    assert ("GPU", "volkov-benchmarking-gpus") in queries
    failed = []
    for singular, slug in sorted(queries):
        found = {s.slug for s in matching_sources(SearchParams(q=singular), limit=len(SOURCES))}
        if slug not in found:
            failed.append(f"{singular!r} does not find {slug}")
    assert not failed
