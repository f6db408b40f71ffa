"""Words that mean the same, camel-case names by their parts, and `or` inside a sentence."""

import pytest
from django.core.cache import cache

from catalog.models import Source
from search.described import (
    COMMON,
    Term,
    camel_parts,
    document_stems,
    text_stems,
    weighted_terms,
)
from search.equivalents import alternatives, spellings, with_forms
from search.page import matching_sources, search_sources
from search.parsing import SearchParams, parse_query
from search.postgres_match import widening_text


def top(query: str, count: int = 10) -> list[str]:
    cache.clear()
    page = search_sources(SearchParams(q=query))
    return [source.slug for source in page.page.object_list][:count]


def test_an_abbreviation_counts_as_what_it_stands_for() -> None:
    assert alternatives(("kv", "cache")) == {"kv": ("key value",)}
    assert alternatives(("ttft",))["ttft"][0] == "time to first token"


def test_words_that_spell_a_form_out_each_count_as_its_abbreviation() -> None:
    found = alternatives(("what", "mixture", "expert", "routing"))
    assert found["mixture"] == found["expert"] == ("moe",)
    assert "routing" not in found


def test_words_side_by_side_in_another_order_spell_a_form_out() -> None:
    # "latency of the first token": the stop words gone, its words spell "first token latency".
    found = alternatives(("reduce", "latency", "first", "token"))
    assert found["latency"] == found["first"] == found["token"] == ("ttft", "time to first token")
    assert "reduce" not in found
    # Apart, they do not: "tensor cores for parallel code" is not tensor parallelism.
    assert alternatives(("tensor", "cores", "parallel", "code")) == {}


def test_a_word_alone_does_not_spell_a_phrase_out() -> None:
    # "memory" is a word of "out of memory", which alone it does not mean.
    assert "memory" not in alternatives(("gpu", "memory"))


def test_british_spellings_and_comparatives_find_the_catalogs_words() -> None:
    assert spellings("quantisation") == ("quantization",)
    assert spellings("analysed") == ("analyzed",)
    assert spellings("behaviour") == ("behavior",)
    assert spellings("slower") == ("slow",)
    assert spellings("larger") == ("large",)
    assert spellings("bigger") == ("big",)
    assert spellings("server") == ()  # "serv" is no adjective the table compares


def test_each_word_of_the_query_is_searched_as_itself_or_its_forms() -> None:
    assert with_forms("(kv) & (cache)", ("kv", "cache")) == "((kv | key <-> value)) & (cache)"
    assert with_forms("(paged) & (attention)", ("paged", "attention")) == ("(paged) & (attention)")
    both = with_forms("(mixture) & (experts)", ("mixture", "experts"))
    assert both == "((mixture | moe)) & ((experts | moe))"
    # A prefix stays a prefix, and a format's family is not added twice.
    assert with_forms("(kv | kv:*)", ("kv",)) == "((kv | key <-> value) | kv:*)"
    assert with_forms("(fp6 | mxfp6 | nvfp6)", ("fp6",)) == "(fp6 | mxfp6 | nvfp6)"


def test_camel_case_names_are_split_as_the_postgresql_document_splits_them() -> None:
    assert camel_parts("FlashAttention-3, LMCache and SGLang on GPUs") == (
        "Flash Attention LM Cache SG Lang"
    )
    assert "attent" in document_stems("FlashAttention")
    assert "attent" not in text_stems("FlashAttention")
    assert "gpu" in text_stems("GPUs")


def test_a_common_word_widens_only_with_every_other_word() -> None:
    terms = weighted_terms({"kernel": COMMON, "occupancy": COMMON, "warp": 40}, 100_000)
    assert [term.widens for term in terms] == [False, False, True]
    assert widening_text(terms) == "(warp) | ((kernel) & (occupancy) & (warp))"
    common = (Term("kernel", 0.5, widens=False), Term("occupancy", 0.5, widens=False))
    assert widening_text(common) == "((kernel) & (occupancy))"


def test_or_joins_the_words_beside_it_as_websearch_does() -> None:
    query = parse_query("limited by compute or memory bandwidth")
    assert query.any_of
    assert query.any_of_groups == (("limited",), ("by",), ("compute", "memory"), ("bandwidth",))
    assert parse_query('x or "y z" w').any_of_groups == (("x", "y z"), ("w",))
    assert parse_query("plain words").any_of_groups == ()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("key value cache", {"pagedattention", "kivi", "cachegen"}),
        ("structured output", {"xgrammar", "guiding-llms-the-right-way"}),
        ("in-flight batching", {"orca", "tensorrt-llm"}),
        ("quantisation of weights", {"gptq", "awq"}),
        ("how is flash attention different from standard attention", {"flashattention"}),
        ("attention kernel for hopper", {"flashattention-3"}),
        ("find out whether my kernel is limited by compute or memory bandwidth", {"roofline"}),
    ],
)
def test_described_needs_in_other_words_find_their_sources(
    shipped_catalog: None, query: str, expected: set[str]
) -> None:
    assert expected & set(top(query, 3))


@pytest.mark.django_db
def test_the_readers_own_word_comes_before_an_equivalent_form(shipped_catalog: None) -> None:
    # "gemm" counts as "matmul", but the sources that say matmul come first.
    sources = {s.slug: s for s in Source.objects.all()}
    found = [s.slug for s in matching_sources(SearchParams(q="matmul"), limit=100)]
    for slug in found[:3]:
        source = sources[slug]
        assert "matmul" in f"{source.title} {source.aliases} {source.summary}".lower(), slug
    assert "deepgemm" in found  # GEMM only
