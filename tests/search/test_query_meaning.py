"""What a query's words mean, on both databases: a definition question puts the source that
defines its term first (after any source it names), numbers count, and filler is only filler."""

import pytest

from search.described import FILLER, meaningful_words, subject_words
from search.page import search_sources
from search.parsing import SearchParams, defined_term, parse_query
from tests.factories import SourceFactory
from tests.hints import Tiers

pytestmark = pytest.mark.django_db


def slugs(q: str) -> list[str]:
    return [source.slug for source in search_sources(SearchParams(q=q)).page.object_list]


@pytest.mark.parametrize(
    ("text", "term"),
    [
        ("what is a tensor core", ("tensor", "core")),
        ("What is a CTA?", ("cta",)),
        ("what does CTA mean", ("cta",)),
        ("explain occupancy", ("occupancy",)),
        ("tensor core meaning", ("tensor", "core")),
        ("what is mixture of experts", ("mixture", "of", "experts")),
        ("tensor core", ()),
        ("what is the difference between PTX and SASS", ()),
        ("what is a warp and how are threads grouped into blocks", ()),
        ("what is the fastest way to run attention", ()),
    ],
)
def test_a_definition_question_has_one_term(text: str, term: tuple[str, ...]) -> None:
    assert defined_term(text) == term
    assert parse_query(text).defines == term


def test_a_definition_question_puts_the_defining_source_first(tiers: Tiers) -> None:
    # Sources that use the term, trusted and with it in their titles, rank first for the bare
    # term; the glossary that defines it is a further reading.
    for number in range(4):
        SourceFactory(
            slug=f"tensor-core-kernels-{number}",
            title=f"Tensor core kernels {number}",
            summary="Fast tensor core matrix multiply kernels.",
            keywords="tensor core GEMM;hopper tensor core kernel",
            tier=tiers["core"],
        )
    SourceFactory(
        slug="glossary",
        title="A glossary of GPU terms",
        summary="Short entries for the words of GPU hardware and software.",
        keywords="GPU terminology;tensor core definition;what is a warp",
        tier=tiers["further-reading"],
    )
    assert slugs("tensor core")[0] != "glossary"
    for question in ("what is a tensor core", "explain tensor core", "tensor core meaning"):
        assert slugs(question)[0] == "glossary", question
    assert slugs("what is a warp")[0] == "glossary"
    # The plural asks the same, on both databases.
    for question in ("what are tensor cores", "what are warps", "tensor cores explained"):
        assert slugs(question)[0] == "glossary", question


def test_a_named_source_still_comes_before_the_defining_one(tiers: Tiers) -> None:
    SourceFactory(slug="cutlass", title="CUTLASS", summary="Templates for GEMM kernels.")
    SourceFactory(
        slug="glossary",
        title="A glossary of GPU terms",
        summary="Short entries for GPU words, CUTLASS among them.",
        keywords="what is cutlass",
        tier=tiers["core"],
    )
    assert slugs("what is cutlass")[:2] == ["cutlass", "glossary"]


def test_numbers_count_in_the_partial_match() -> None:
    assert meaningful_words(("3", "bit", "weights")) == ("3", "bit", "weights")
    assert meaningful_words(("2", "4", "sparsity")) == ("2", "4", "sparsity")
    assert meaningful_words(("a", "b", "gpus")) == ("gpus",)  # a lone letter says nothing


def test_a_number_ranks_the_source_that_has_it(tiers: Tiers) -> None:
    # Neither has all three words; each has two, one of them the number.
    SourceFactory(
        slug="four-bit",
        title="Four bit weights",
        summary="Rounds weights to 4 bit integers.",
        tier=tiers["core"],
    )
    SourceFactory(
        slug="three-bit",
        title="Weight rounding",
        summary="Keeps 3 bit weights accurate.",
        tier=tiers["frontier"],
    )
    assert slugs("3 bit weights precision")[0] == "three-bit"


@pytest.mark.parametrize("word", ["several", "one", "type", "use", "kind", "make", "sort"])
def test_content_words_are_not_filler(word: str) -> None:
    assert word not in FILLER
    assert subject_words(("how", "to", word, "kernels")) == (word, "kernels")


def test_a_content_word_once_filler_ranks(tiers: Tiers) -> None:
    SourceFactory(slug="plain", title="Kernels", summary="GPU kernels.", tier=tiers["core"])
    SourceFactory(
        slug="several",
        title="Kernels across several GPUs",
        summary="GPU kernels split over several devices.",
        tier=tiers["frontier"],
    )
    assert slugs("kernels on several gpus")[0] == "several"
