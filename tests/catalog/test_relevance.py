"""Relevance on the shipped catalog: what a reader types, and a source they expect near the top.

Rows marked `postgres` rely on full-text search (stemming, typo correction, compound words);
they are skipped on SQLite, whose backend only requires every word somewhere in the source.
"""

import pytest
from django.db import transaction

from catalog.catalog_file import read_catalog
from catalog.search import SearchParams, search_sources
from catalog.services import load_catalog

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def shipped_catalog(django_db_setup, django_db_blocker):
    """The shipped catalog, loaded once for the module and rolled back at its end.

    Like `full_catalog`, but loading the file takes seconds and these tests only read.
    """
    with django_db_blocker.unblock(), transaction.atomic():
        load_catalog(read_catalog(), progress=False)
        yield
        transaction.set_rollback(True)


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
def test_expected_source_in_top_three(shipped_catalog, query, expected):
    page = search_sources(SearchParams(q=query)).page
    top = [source.slug for source in page.object_list[:3]]
    assert expected & set(top), f"{query!r}: top 3 were {top}"


@pytest.mark.postgres
def test_excluded_word_removes_sources(shipped_catalog):
    slugs = {s.slug for s in search_sources(SearchParams(q="flashattention -hopper")).page}
    assert "flashattention-3" not in slugs
    assert "flashattention" in slugs


def test_primary_sources_rank_above_commentary_for_the_same_name(shipped_catalog):
    top = search_sources(SearchParams(q="pagedattention")).page.object_list[0]
    assert top.slug == "pagedattention" and top.is_primary
