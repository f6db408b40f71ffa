"""Relevance on the shipped catalog: what a reader types, and a source they expect near the top.

Rows marked `postgres` rely on full-text search (stemming, typo correction, compound words);
they are skipped on SQLite, whose backend only requires every word somewhere in the source.
"""

import re
from collections import Counter
from collections.abc import Callable
from html import unescape
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client

from catalog.catalog_file import read_catalog
from search.names import acronym, base_name, normalised, source_names
from search.page import search_sources
from search.parsing import SearchParams
from tests.hints import found as expect_match

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


PG = pytest.mark.postgres

CASES = [
    # (query, slugs any one of which must be in the top 3)
    ("flash attention hopper", {"flashattention-3"}, PG),  # "FlashAttention" is one word
    ("kv cache quant", {"kivi"}, None),
    ("paged", {"pagedattention"}, None),
    ("Dao", {"flashattention", "flashattention-2", "flashattention-4"}, None),  # an author
    ("GQA", {"gqa"}, None),  # an acronym, from the aliases
    ("MLA", {"deepseek-v2"}, None),
    ("FP8", {"ocp-fp8", "transformer-engine"}, None),
    ("flashatention", {"flashattention"}, PG),  # a typo
    ("speculativ decodng", {"speculative-decoding-leviathan"}, PG),  # two typos
    ("speculative decoding", {"speculative-decoding-leviathan"}, None),
    ("ring attention", {"ring-attention"}, None),
    ("roofline", {"roofline"}, None),
    ("nccl", {"nccl"}, None),
    ("triton", {"triton-paper", "triton-repo", "triton-programming-guide"}, None),
    ("cutlass", {"cutlass-3x-design", "cutlass-blackwell-docs"}, None),
    ("disaggregated prefill decode", {"distserve", "dynamo-disaggregated-serving"}, None),
    ("vLLM", {"vllm", "pagedattention"}, None),
    ("tensor parallelism", {"megatron-lm"}, PG),  # "parallelism" stems to "parallel"
    ("mixture of experts", {"sparsely-gated-moe"}, PG),  # "of" is a stop word
    ("Nsight", {"nsight-compute-profiling-guide", "nsight-systems"}, None),
    ("quantization", {"gptq", "awq", "kivi", "smoothquant"}, None),
    ("quantize weights", {"gptq", "awq", "smoothquant"}, PG),  # stemming
    ("deepseek", {"deepseek-v2", "deepseek-v3"}, None),
    ("grouped query", {"gqa"}, None),
    ('"ring attention"', {"ring-attention"}, None),  # a quoted phrase
    ("flashattention -hopper", {"flashattention", "flashattention-2"}, None),  # exclusion
    ("pagedatt", {"pagedattention"}, PG),  # prefix as the reader types
    ("mixtral or mamba", {"mamba"}, PG),
]


@pytest.mark.parametrize(
    ("query", "expected"),
    [pytest.param(q, e, marks=[m] if m else [], id=q) for q, e, m in CASES],
)
def test_expected_source_in_top_three(
    shipped_catalog: None, query: str, expected: set[str]
) -> None:
    page = search_sources(SearchParams(q=query)).page
    top = [source.slug for source in page.object_list[:3]]
    assert expected & set(top), f"{query!r}: top 3 were {top}"


@pytest.mark.postgres
def test_excluded_word_removes_sources(shipped_catalog: None) -> None:
    slugs = {s.slug for s in search_sources(SearchParams(q="flashattention -hopper")).page}
    assert "flashattention-3" not in slugs
    assert "flashattention" in slugs


def test_primary_sources_rank_above_commentary_for_the_same_name(shipped_catalog: None) -> None:
    top = search_sources(SearchParams(q="pagedattention")).page.object_list[0]
    assert top.slug == "pagedattention" and top.is_primary


# -- Rules that hold for every source, chosen from the shipped catalog --------------------------

SOURCES = [s for s in read_catalog()["sources"] if s["status"] == "published"]
NAMES = {s["slug"]: source_names(s["title"], s["aliases"]) for s in SOURCES}
BY_SLUG = {s["slug"]: s for s in SOURCES}
TRUSTED_TIERS = {"start-here", "core"}


def top_slugs(query: str, count: int = 10) -> list[str]:
    return [source.slug for source in search_sources(SearchParams(q=query)).page][:count]


def named_exactly(query: str) -> set[str]:
    """The sources whose name the query is, normalised: any of them may come first."""
    key = normalised(query)
    return {slug for slug, names in NAMES.items() if key in names}


def name_variants(source: dict) -> list[str]:
    """What a reader types for a source's name: as written, without spaces, split into words."""
    title = source["title"]
    short = title.split(":", 1)[0]
    camel_split = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", short)
    variants = [title, short, short.replace(" ", ""), short.replace("-", " "), camel_split]
    variants += [alias.strip() for alias in source["aliases"].split(",") if alias.strip()]
    return list(dict.fromkeys(v for v in variants if len(normalised(v)) >= 2))


def failures_of(queries: list[tuple[str, set[str]]]) -> list[str]:
    failed = []
    for query, expected in queries:
        top = top_slugs(query, 3)
        if not top or top[0] not in expected:
            failed.append(f"{query!r}: expected one of {sorted(expected)} first, got {top}")
    return failed


def test_a_trusted_sources_title_and_aliases_find_it_first(shipped_catalog: None) -> None:
    """Navigational: for every Start-here and core source, its title, short title, title with
    spaces removed or hyphens as spaces, and each alias put a source of that name first."""
    queries = [
        (variant, named_exactly(variant))
        for source in SOURCES
        if source["tier"] in TRUSTED_TIERS
        for variant in name_variants(source)
    ]
    assert len(queries) > 200
    assert not failures_of(queries)


def test_every_sources_exact_title_finds_it_first(shipped_catalog: None) -> None:
    queries = [(s["title"], named_exactly(s["title"])) for s in SOURCES]
    assert not failures_of(queries)


def test_an_acronym_of_the_title_finds_the_source_first(shipped_catalog: None) -> None:
    """ "PMPP", "FA3": the initials of the title's capitalised words and humps, with its version."""
    queries = []
    for source in SOURCES:
        short = acronym(source["title"].split(":", 1)[0])
        if len(short) >= 3 and len(named_exactly(short)) == 1:
            queries.append((short, named_exactly(short)))
    assert {"FA3", "PMPP"} <= {query for query, _ in queries}
    assert not failures_of(queries)


@pytest.mark.parametrize(
    ("query", "slug"),
    [
        ("flash attention", "flashattention"),
        ("flashattention", "flashattention"),
        ("Flash-Attention", "flashattention"),
        ("FA3", "flashattention-3"),
        ("flash attention 3", "flashattention-3"),
        ("pmpp", "pmpp"),
        ("paged attention", "pagedattention"),
        ("vllm", "vllm"),
        ("eagle", "eagle"),
        ("eagle 2", "eagle-2"),
        ("transformer", "attention-is-all-you-need"),
    ],
)
def test_named_queries_from_the_issue(shipped_catalog: None, query: str, slug: str) -> None:
    assert top_slugs(query, 1) == [slug]


def version_families() -> dict[str, list[dict]]:
    """Sources whose short title is another's plus a version ("EAGLE-2", "FlashAttention-3"),
    grouped by that base name."""
    families: dict[str, list[dict[str, Any]]] = {}
    for source in SOURCES:
        short = normalised(source["title"].split(":", 1)[0])
        if base := base_name(short):
            families.setdefault(base, []).append(source)
    return {
        base: members
        for base, members in families.items()
        if len(members) >= 2
        or any(normalised(s["title"].split(":", 1)[0]) == base for s in SOURCES)
    }


def version_of(source: dict) -> int:
    return int(
        expect_match(re.search(r"[0-9]+$", normalised(source["title"].split(":", 1)[0]))).group()
    )


def test_originals_come_before_their_successors(shipped_catalog: None) -> None:
    """The base name ("eagle", "flashattention", "deepseek") puts the original first, then its
    versions in order."""
    families = version_family_queries()
    assert {"eagle", "flashattention"} <= set(families)
    failed = []
    for base, expected in families.items():
        top = top_slugs(base, len(expected))
        if top != expected:
            failed.append(f"{base!r}: expected {expected}, got {top}")
    assert not failed


def version_family_queries() -> dict[str, list[str]]:
    expected = {}
    for base, versions in version_families().items():
        originals = sorted(
            s["slug"] for s in SOURCES if normalised(s["title"].split(":", 1)[0]) == base
        )
        if len(originals) > 1 or len(named_exactly(base)) > len(originals):
            continue  # several sources have that very name: any of them may come first
        expected[base] = originals + [s["slug"] for s in sorted(versions, key=version_of)]
    return expected


def version_spellings() -> list[tuple[str, set[str]]]:
    """Every way a reader writes a catalogued version ("FlashAttention v3", "flash attention 3",
    "DeepSeek 3" for DeepSeek-V3), and "1" for a family's original ("EAGLE 1" is EAGLE)."""
    queries = []
    for base, versions in version_families().items():
        shown = re.sub(r"[-\s]*v?[0-9]+$", "", versions[0]["title"].split(":", 1)[0], flags=re.I)
        for source in versions:
            number = version_of(source)
            same = {s["slug"] for s in versions if version_of(s) == number}
            queries += [(f"{shown} v{number}", same), (f"{shown} {number}", same)]
            queries.append((f"{shown.replace('-', ' ')} {number}", same))
        originals = {s["slug"] for s in SOURCES if normalised(s["title"].split(":", 1)[0]) == base}
        if len(originals) == 1 and not named_exactly(f"{base}1"):
            queries.append((f"{shown} 1", originals))
    return queries


def test_a_version_written_any_way_finds_that_version_first(shipped_catalog: None) -> None:
    queries = version_spellings()
    asked = {query.casefold() for query, _ in queries}
    assert {"flashattention v3", "eagle 1", "deepseek 3"} <= asked
    assert not failures_of(queries)


def test_a_title_after_an_article_finds_its_source_first(shipped_catalog: None) -> None:
    """ "The Transformer", "a roofline model": an article in front of a name changes nothing."""
    queries = [
        (f"{article} {source['title'].split(':', 1)[0]}", named_exactly(source["title"]))
        for source in SOURCES
        if source["tier"] in TRUSTED_TIERS
        for article in ("the", "A")
    ]
    queries.append(("the transformer", {"attention-is-all-you-need"}))
    assert not failures_of(queries)


def suggested(query: str) -> list[str]:
    """The results, or when there are none (every word is required) the page's suggestions."""
    page = search_sources(SearchParams(q=query))
    if page.facets.total:
        return [source.slug for source in page.page.object_list]
    return [suggestion.slug for suggestion in page.suggestions]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("pmpp book", {"pmpp"}),
        ("openai triton", {"triton-paper", "triton-repo", "triton-programming-guide"}),
        ("FlashAttention paper", {"flashattention"}),
        ("hf transformers", {"hf-transformers"}),
    ],
)
def test_a_name_with_a_word_its_source_lacks_suggests_the_source_first(
    shipped_catalog: None, query: str, expected: set[str]
) -> None:
    """Every word is required, so nothing may match; then the source the rest of the query names
    is what the page suggests first."""
    assert suggested(query)[0] in expected


def test_a_trusted_sources_name_with_one_more_word_finds_or_suggests_it(
    shipped_catalog: None,
) -> None:
    queries = []
    for source in SOURCES:
        short = source["title"].split(":", 1)[0]
        if source["tier"] in TRUSTED_TIERS and len(short.split()) <= 2:
            queries += [
                (f"{short} zqxw", named_exactly(short)),
                (f"zqxw {short}", named_exactly(short)),
            ]
    assert len(queries) > 40
    failed = [
        f"{query!r}: {top}"
        for query, expected in queries
        if not expected & set(top := suggested(query))
    ]
    assert not failed


def test_a_comparison_of_two_names_finds_both_first(shipped_catalog: None) -> None:
    """A comparison ("X vs Y", "difference between X and Y") names two sources, whatever else
    mentions both: each side that names a source puts it first, as the name alone would."""
    names = sorted(
        short
        for source in SOURCES
        if source["tier"] in TRUSTED_TIERS
        and len((short := source["title"].split(":", 1)[0]).split()) == 1
        and len(named_exactly(short)) == 1
    )
    pairs = list(zip(names[::2], names[1::2], strict=False))
    assert len(pairs) > 10
    failed = []
    for first, second in pairs:
        expected = named_exactly(first) | named_exactly(second)
        for query in (f"{first} vs {second}", f"difference between {first} and {second}"):
            if set(top := top_slugs(query, 2)) != expected:
                failed.append(f"{query!r}: {top}")
    assert not failed


@pytest.mark.postgres
def test_a_name_inside_a_query_that_matches_changes_nothing(shipped_catalog: None) -> None:
    # "flash attention" names FlashAttention, but only FlashAttention-3 is about Hopper.
    assert top_slugs("flash attention hopper", 1) == ["flashattention-3"]
    assert top_slugs("flashattention hopper", 1) == ["flashattention-3"]
    assert "flashattention" not in top_slugs("flash attention hopper")


def test_broad_word_puts_the_original_mechanism_first(shipped_catalog: None) -> None:
    top = top_slugs("attention")
    assert top.index("attention-is-all-you-need") < top.index("native-sparse-attention")
    assert top.index("attention-is-all-you-need") < top.index("ring-attention")
    assert "attention-is-all-you-need" in top_slugs("transformer", 3)


def broad_title_words() -> list[str]:
    """Words in the titles of three or more sources, of which one is Start-here or core."""
    counts = Counter(
        word for s in SOURCES for word in set(re.findall(r"[a-z]{5,}", s["title"].lower()))
    )
    return sorted(
        word
        for word, count in counts.items()
        if count >= 3
        and not named_exactly(word)  # "cuBLAS", "Transformers": a name, not a topic
        and any(word in s["title"].lower() and s["tier"] in TRUSTED_TIERS for s in SOURCES)
    )


def test_a_broad_word_puts_a_trusted_source_first(shipped_catalog: None) -> None:
    """For a word many titles share, Start-here and core sources come before the rest."""
    words = broad_title_words()
    assert len(words) >= 10
    failed = [
        f"{word!r}: {top}"
        for word in words
        if (top := top_slugs(word, 1)) and BY_SLUG[top[0]]["tier"] not in TRUSTED_TIERS
    ]
    assert not failed


# -- What the results page shows --------------------------------------------------------------


@pytest.fixture
def page_html(shipped_catalog: None, client: Client) -> Callable[..., str]:
    cache.clear()  # pages cached by earlier tests were rendered from another catalog

    def fetch(query: str, **extra: str) -> str:
        response = client.get("/sources/", {"q": query, **extra})
        assert response.status_code == 200
        return response.content.decode()

    return fetch


def cards_of(html: str) -> list[str]:
    return re.findall(r'<article class="card source-card.*?</article>', html, re.S)


def text_of(fragment: str) -> str:
    return unescape(re.sub(r"<[^>]+>", "", fragment))


@pytest.mark.postgres
def test_a_corrected_query_says_so_and_links_to_the_words_as_typed(
    page_html: Callable[..., str],
) -> None:
    html = page_html("flashatention")
    assert "Showing results for <strong>flashattention</strong>" in html
    link = re.search(r'Search instead for <a href="([^"]+)">flashatention</a>', html)
    assert link and "exact=1" in link.group(1) and "q=flashatention" in link.group(1)
    assert "matching “flashattention”" in html
    literal = page_html("flashatention", exact="1")
    assert "Showing results for" not in literal
    assert "matching “flashatention”" in literal


@pytest.mark.postgres
def test_a_name_or_a_correctly_spelled_query_is_not_announced_as_corrected(
    page_html: Callable[..., str],
) -> None:
    for query in ("flashattention", "TPUv4", "attention", "eagle 2"):
        assert "Showing results for" not in page_html(query), query


SNIPPET_QUERIES = ["attention", "kv cache", "hopper", "serving", "quantization", "kernel"]


def test_snippets_cut_at_words_with_an_ellipsis_wherever_text_is_cut(
    page_html: Callable[..., str],
) -> None:
    summaries = {s["slug"]: " ".join(s["summary"].split()) for s in SOURCES}
    checked = 0
    for query in SNIPPET_QUERIES:
        for card in cards_of(page_html(query)):
            slug = expect_match(
                re.search(r'id="src-\d+"><a href="/sources/([^/"]+)/"', card)
            ).group(1)
            snippet = " ".join(
                text_of(
                    expect_match(re.search(r'<p class="snippet">(.*?)</p>', card, re.S)).group(1)
                ).split()
            )
            summary = summaries[slug]
            if not snippet.startswith("…"):
                assert summary.startswith(snippet.split(" …")[0]), (query, snippet)
            for piece in filter(None, (p.strip() for p in snippet.split("…"))):
                found = summary.find(piece)
                assert found >= 0, (query, piece)
                end = found + len(piece)
                assert found == 0 or summary[found - 1] == " ", (query, "starts mid-word", piece)
                assert end == len(summary) or summary[end] == " ", (query, "ends mid-word", piece)
            if not snippet.endswith("…"):
                # The snippet is the whole rest of the summary, or its first sentence.
                last = snippet.split("…")[-1].strip()
                rest = summary[summary.find(last) + len(last) :]
                assert not rest or (rest[0] == " " and last[-1] in ".!?"), (query, snippet)
            checked += 1
    assert checked >= 30


def test_every_card_has_the_same_layout_with_or_without_a_match_in_its_summary(
    page_html: Callable[..., str],
) -> None:
    # "attention": some summaries say it (a marked snippet), some only the title does.
    cards = cards_of(page_html("attention"))
    layouts = {tuple(re.findall(r'<(?:p|h3) class="([^"]+)"', card)) for card in cards}
    assert len(cards) > 5 and len(layouts) == 1
    assert all('<p class="snippet">' in card for card in cards)
    assert any("<mark>" in card.split('<p class="snippet">')[1] for card in cards)
    assert any("<mark>" not in card.split('<p class="snippet">')[1] for card in cards)


def test_sources_with_the_same_title_are_told_apart_on_their_cards(
    page_html: Callable[..., str],
) -> None:
    by_title = Counter(s["title"].casefold() for s in SOURCES)
    shared = sorted({s["title"] for s in SOURCES if by_title[s["title"].casefold()] > 1})
    assert "SGLang" in shared
    for title in shared:
        headings = [
            text_of(expect_match(re.search(r"<h3.*?</h3>", card, re.S)).group())
            for card in cards_of(page_html(title))
            if text_of(expect_match(re.search(r"<h3.*?</h3>", card, re.S)).group()).startswith(
                title
            )
        ]
        assert len(headings) >= 2 and len(set(headings)) == len(headings), headings
    sglang = [
        text_of(expect_match(re.search(r"<h3.*?</h3>", c, re.S)).group()).strip()
        for c in cards_of(page_html("SGLang"))
    ]
    assert "SGLang (Paper)" in sglang and "SGLang (Repository, github.com)" in sglang
