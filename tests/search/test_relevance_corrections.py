"""Typo correction on the shipped catalog: every correction is announced and names the word the
reader meant, "Search instead" keeps the typed words, and a correction never loses a match.

PostgreSQL only: SQLite's backend corrects nothing.
"""

import re
from collections import defaultdict
from typing import Any

import pytest
from django.core.paginator import Page
from django.db import connection
from django.test import Client
from pytest_django import DjangoDbBlocker

from catalog.catalog_file import read_catalog
from catalog.models import Source
from search.corrections import closest, edit_distance, near_misses, splits, unlikely_typo
from search.page import search_sources
from search.parsing import SearchParams
from search.shared import Matched

pytestmark = [pytest.mark.django_db, pytest.mark.postgres, pytest.mark.slow]

SOURCES = [s for s in read_catalog()["sources"] if s["status"] == "published"]
TITLE_WORDS: dict[str, set[str]] = defaultdict(set)  # title word: slugs of the titles with it
for _source in SOURCES:
    for _word in re.findall(r"[A-Za-z]+", _source["title"]):
        TITLE_WORDS[_word.lower()].add(_source["slug"])
# Words of at least six letters in at most three titles: a typo of one has one clear meaning.
RARE_TITLE_WORDS = sorted(w for w, slugs in TITLE_WORDS.items() if len(w) >= 6 and len(slugs) <= 3)


def typos(word: str) -> dict[str, str]:
    """A letter left out (in the middle, and the last one), two letters swapped, one doubled."""
    middle = len(word) // 2
    return {
        "deletion": word[:middle] + word[middle + 1 :],
        "last letter left out": word[:-1],
        "transposition": word[:middle] + word[middle + 1] + word[middle] + word[middle + 2 :],
        "doubled letter": word[:middle] + word[middle] + word[middle:],
    }


@pytest.fixture(scope="module")
def vocabulary(shipped_catalog: None, django_db_blocker: DjangoDbBlocker) -> set[str]:
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute("SELECT word FROM catalog_search_word")
        return {word for (word,) in cursor.fetchall()}


def search(q: str, **kwargs: Any) -> tuple[Matched, list[str], Page[Source]]:
    result = search_sources(SearchParams(q=q, **kwargs))
    return result.query, [source.slug for source in result.page.object_list], result.page


def test_the_generated_typos_cover_many_title_words() -> None:
    assert len(RARE_TITLE_WORDS) > 100


def test_every_typo_of_a_title_word_is_announced_as_that_word(
    shipped_catalog: None, vocabulary: set[str]
) -> None:
    """For every rare title word: each typo is corrected, the correction is announced and names
    the word, and the results are those of the word itself."""
    failures, checked = [], 0
    for word in RARE_TITLE_WORDS:
        if word not in vocabulary:
            continue
        _, expected, _ = search(word)
        for kind, typo in typos(word).items():
            if typo in vocabulary:
                continue  # another word the catalog has: nothing to correct
            checked += 1
            query, slugs, _ = search(typo)
            if word not in query.corrected.split() or slugs[:3] != expected[:3]:
                failures.append(f"{kind} {typo!r}: corrected={query.corrected!r} top={slugs[:3]}")
    assert checked > 300
    # A few typos are one edit from two words ("multipl": multiple or multiply?).
    assert len(failures) <= checked // 50, "\n".join(failures)


def test_the_typo_of_a_rare_title_word_finds_its_source(
    shipped_catalog: None, vocabulary: set[str]
) -> None:
    """Where the word itself puts its source in the top 3, so does each of its typos."""
    missed, checked = [], 0
    for word in RARE_TITLE_WORDS:
        _, top, _ = search(word)
        if word not in vocabulary or not TITLE_WORDS[word] & set(top[:3]):
            continue
        for typo in typos(word).values():
            if typo in vocabulary:
                continue
            checked += 1
            query, slugs, _ = search(typo)
            if not (query.corrected and TITLE_WORDS[word] & set(slugs[:3])):
                missed.append(f"{typo!r} ({word}): corrected={query.corrected!r} top={slugs[:3]}")
    assert checked > 200
    assert len(missed) <= checked // 50, "\n".join(missed)


# (typed, the correction announced, a source expected in the top 3)
CASES = [
    ("medusaa", "medusa", {"medusa"}),  # a doubled letter
    ("flashinfr", "flashinfer", {"flashinfer", "flashinfer-paper"}),
    ("deepsek", "deepseek", {"deepseek-v2", "deepseek-v3"}),
    ("rooflin", "roofline", {"roofline"}),  # the last letter left out
    ("cutlas", "cutlass", {"cutlass-3x-design", "cutlass"}),
    ("blackwel", "blackwell", {"blackwell-architecture-brief", "blackwell-tuning-guide"}),
    ("chunked prefil", "chunked prefill", {"sarathi-serve"}),
    ("transfromer", "transformer", {"attention-is-all-you-need"}),  # not "transfer"
    # A split name with a typo: "flash" is a word of the catalog ("flash_attn"), so the typo alone
    # is corrected, and the words still name the source.
    ("flash atention", "flash attention", {"flashattention"}),
    ("flash attenton 2", "flash attention 2", {"flashattention-2"}),
    ("kv cahce", "kv cache", {"kivi", "cachegen", "pagedattention", "mooncake"}),
    ("sglnag", "sglang", {"sglang", "sglang-paper"}),  # a swap trigrams miss
    ("kvcache", "kv cache", {"kivi", "cachegen", "pagedattention", "mooncake"}),  # run together
    ("attention is all you ned", "attention is all you need", {"attention-is-all-you-need"}),
    ("paged atention", "paged attention", {"pagedattention"}),
]


@pytest.mark.parametrize(("typed", "corrected", "expected"), CASES, ids=[c[0] for c in CASES])
def test_correction_is_announced(
    shipped_catalog: None, typed: str, corrected: str, expected: set[str]
) -> None:
    query, slugs, _ = search(typed)
    assert query.corrected == corrected
    assert expected & set(slugs[:3]), f"{typed!r}: top 3 were {slugs[:3]}"


@pytest.mark.parametrize(
    "typed",
    ["spec decoding", "pagedatt", "flash attention hopper", "kv", "fa3", "deepseek v3", "wgmma"],
)
def test_no_correction_where_the_words_are_known_or_being_typed(
    shipped_catalog: None, typed: str
) -> None:
    """A known word, a name, or the start of longer words ("spec", "pagedatt") is searched as
    typed, with the prefix where it starts words: nothing is announced and nothing replaced."""
    query, slugs, _ = search(typed)
    assert query.corrected == ""
    assert slugs, f"{typed!r} found nothing"


def test_a_word_that_starts_known_words_is_not_corrected_to_another(shipped_catalog: None) -> None:
    """ "spec" once became "special" and found nothing; it is the start of "speculative"."""
    _, slugs, _ = search("spec decoding")
    assert "speculative-decoding-leviathan" in slugs[:3]


@pytest.mark.parametrize("typed", [c[0] for c in CASES])
def test_search_instead_searches_the_typed_words(shipped_catalog: None, typed: str) -> None:
    """exact=1 (the "Search instead" link) corrects nothing, and the correction found at least
    every source the typed words find."""
    exact, _, exact_page = search(typed, exact=True)
    assert exact.corrected == ""
    _, _, page = search(typed)
    assert page.paginator.count >= exact_page.paginator.count


def test_correction_is_announced_on_the_page(client: Client, shipped_catalog: None) -> None:
    html = client.get("/sources/", {"q": "flashinfr"}).content.decode()
    assert "Showing results for <strong>flashinfer</strong>" in html
    assert "exact=1" in html and ">flashinfr</a>" in html
    html = client.get("/sources/", {"q": "flashinfr", "exact": "1"}).content.decode()
    assert "Showing results for" not in html


# -- The pieces, without a database -------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "distance"),
    [("transfromer", "transformer", 1), ("transfromer", "transfer", 3), ("sglnag", "sglang", 1)],
)
def test_edit_distance_counts_a_swap_as_one(a: str, b: str, distance: int) -> None:
    assert edit_distance(a, b) == distance


def test_near_misses_and_splits() -> None:
    assert {"cache"} <= set(near_misses("cahce")) and {"medusa"} <= set(near_misses("medusaa"))
    assert ("kv", "cache") in splits("kvcache")


@pytest.mark.parametrize(
    ("typed", "candidates", "meant"),
    [
        ("transfromer", ("transfer", "transformer"), "transformer"),
        ("ned", ("net", "need", "end"), "need"),  # a letter left out before one replaced
        ("gemmm", ("gemms", "gemm"), "gemm"),  # a doubled letter
        ("tres", ("tree", "trees"), "trees"),
        ("v3", ("v2",), None),  # a version is not a typo
        ("cod", ("cox",), None),  # a short word corrects only a likely slip
    ],
)
def test_closest_prefers_the_likely_slip(
    typed: str, candidates: tuple[str, str] | tuple[str, str, str] | tuple[str], meant: str | None
) -> None:
    found = closest(typed, candidates)
    assert (found[1] if found else None) == meant
    assert not unlikely_typo("medusaa", "medusa") and unlikely_typo("gemms", "gemm")


@pytest.mark.postgres
def test_a_correction_that_finds_nothing_is_not_announced(shipped_catalog: None) -> None:
    page = search_sources(SearchParams(q="drop table zzqv"))
    # "drop" is a word of the catalog: a partial match may show, but no correction is announced.
    assert page.query.corrected == ""
    assert page.facets.total == 0 or page.query.partial


@pytest.mark.parametrize(
    "typed",
    [
        "virtual memory paging for the kv cache",  # not "padding": "paged" is its stem
        "paging",
    ],
)
def test_a_real_word_is_not_corrected_into_another_without_a_clear_gain(
    shipped_catalog: None, typed: str
) -> None:
    """A word the vocabulary lacks but the catalog has in another form is a word, not a typo:
    read as another word only when that finds clearly more, and then announced."""
    query, slugs, _ = search(typed)
    assert query.corrected == ""
    assert slugs


@pytest.mark.parametrize(
    "typed",
    [
        "newer gpus",  # not "fewer", nor "never"
        "tower",  # not "lower" or "power"
        "louder",  # not "loader"
        "bolder kernels",  # not "older"
        "pager rotations",  # not "paged" or "paper"
        "waiter",  # not "aiter"
    ],
)
def test_an_everyday_word_the_catalog_never_uses_is_not_corrected_into_another(
    shipped_catalog: None, typed: str
) -> None:
    """A real English word is what the reader meant: it is searched as typed, however close a
    word of the catalog is, and nothing is announced."""
    query, _, _ = search(typed)
    assert query.corrected == ""
