"""Described needs on the shipped catalog: questions, any-word matches, formats and chips."""

import re

import pytest
from django.core.cache import cache
from django.test import Client

from catalog.models import Source
from search.described import document_stems, query_stems
from search.page import search_sources
from search.parsing import SearchParams

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_page_cache() -> None:
    cache.clear()


def top(query: str, count: int = 10) -> list[str]:
    page = search_sources(SearchParams(q=query))
    return [source.slug for source in page.page.object_list][:count]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("how does speculative decoding work", "speculative-decoding-leviathan"),
        ("what is a roofline model", "roofline"),
        ("why is my decode step memory bound", "scaling-book-inference"),
        ("how does paged attention manage memory", "pagedattention"),
        ("gptq vs awq", "gptq"),
        ("best way to serve llms on kubernetes", "llm-d"),
        ("KV transfer between nodes", "dynamo-disaggregated-serving"),
        ("what is grouped query attention", "gqa"),
    ],
)
def test_questions_and_descriptions_find_their_subject(
    shipped_catalog: None, query: str, expected: str
) -> None:
    assert expected in top(query, 3)


def test_x_vs_y_finds_both(shipped_catalog: None) -> None:
    assert {"gptq", "awq"} <= set(top("gptq vs awq", 2))
    assert {"sglang", "vllm"} <= set(top("sglang vs vllm", 5))


@pytest.mark.parametrize(
    "query",
    [
        "why is my decode step memory bound",
        "serving long context requests without running out of memory",
    ],
)
def test_every_result_has_a_meaningful_word_of_the_query(shipped_catalog: None, query: str) -> None:
    wanted = set(query_stems(query))
    page = search_sources(SearchParams(q=query))
    assert page.query.partial and page.page.object_list
    for source in Source.objects.filter(pk__in=[s.pk for s in page.page.object_list]):
        text = " ".join(
            [
                source.title,
                source.aliases,
                source.summary,
                source.keywords,
                *(t.name for t in source.topics.all()),
            ]
        )
        assert wanted & set(document_stems(text)), source.slug


@pytest.mark.parametrize(
    ("query", "first", "never"),
    [
        ("FP6", "ocp-mx", {"ocp-fp8"}),  # the MX specification defines MXFP6; FP8 is another format
        ("MXFP4", "ocp-mx", {"ocp-fp8"}),
        ("INT4", None, {"llm-int8", "smoothquant"}),
        ("H200", None, {"grace-hopper-blackwell-systems", "hopper-tuning-guide"}),
        ("GH200", "grace-hopper-blackwell-systems", {"hopper-tuning-guide"}),
        ("B200", None, {"grace-hopper-blackwell-systems"}),
        ("sm_90", None, {"blackwell-tuning-guide", "cutlass-blackwell-docs"}),
    ],
)
def test_formats_and_chips_are_distinct_words(
    shipped_catalog: None, query: str, first: str | None, never: set[str]
) -> None:
    slugs = top(query, 25)
    if first:
        assert slugs[0] == first
    assert not set(slugs) & never


def test_the_umbrella_specification_ranks_for_each_format_it_covers(shipped_catalog: None) -> None:
    for member in ("FP6", "FP4", "INT8", "FP8"):
        assert "ocp-mx" in top(member), member


def test_a_thin_page_offers_nearest_topics_and_a_prefilled_proposal(
    client: Client, shipped_catalog: None
) -> None:
    html = client.get("/sources/", {"q": "why is my decode step memory bound"}).content.decode()
    help_block = html[html.index('class="search-help"') :]
    assert 'href="/topics/fundamentals/"' in help_block
    assert 'href="/propose/?title=why%20is%20my%20decode%20step%20memory%20bound"' in help_block
    assert "closest partial matches" in html


@pytest.mark.postgres
@pytest.mark.parametrize(
    ("query", "not_shown"),
    [
        ("what is a roofline model", "isa"),
        ("what is a kernel fusion", "isa"),
        ("offload", "off load"),
        ("positional", "position al"),
        ("H200", "gh200"),
        ("FP6", "fp8"),
    ],
)
def test_no_correction_makes_a_non_word_or_another_term(
    shipped_catalog: None, query: str, not_shown: str
) -> None:
    page = search_sources(SearchParams(q=query))
    assert not_shown not in page.query.corrected.split(" ") or not_shown == page.query.corrected
    assert not re.search(rf"\b{not_shown}\b", page.query.corrected)


@pytest.mark.postgres
def test_a_typo_is_still_corrected_and_announced(client: Client, shipped_catalog: None) -> None:
    html = client.get("/sources/", {"q": "how does speculative decodng work"}).content.decode()
    assert "Showing results for <strong>how does speculative decoding work</strong>" in html
    assert "Search instead for" in html
