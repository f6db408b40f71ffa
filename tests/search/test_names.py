"""Navigational names: how a source is called, the same in Python (SQLite) and SQL (PostgreSQL)."""

import pytest
from django.db import connection

from catalog.models import Source
from catalog.services import LoadReport
from search.names import name_level, query_keys, source_names


def test_a_sources_names_cover_title_short_title_aliases_acronym_and_version_base() -> None:
    names = source_names("FlashAttention-3: Fast and Accurate Attention", "FA3, flash3")
    assert {"flashattention3", "fa3", "flash3", "~flashattention", "~fa"} <= names
    assert "flashattention3fastandaccurateattention" in names
    assert "pmpp" in source_names("Programming Massively Parallel Processors", "")
    assert source_names("vLLM", "") == {"vllm"}  # one capital hump is no acronym


def test_the_name_level_puts_the_exact_name_above_versions_and_lower_versions_first() -> None:
    original = source_names("EAGLE", "")
    second, third = source_names("EAGLE-2: Faster", ""), source_names("EAGLE-3", "")
    assert name_level(original, "eagle") == 2
    assert 1 > name_level(second, "eagle") > name_level(third, "eagle") > 0
    assert name_level(second, "eagle2") == 2
    assert name_level(source_names("Ring Attention", ""), "eagle") == 0
    assert query_keys("Flash-Attention 3") == [
        "flashattention3",
        "~flashattention3",
        "~flashattention",
        "flashattention",
    ]
    assert query_keys("a") == []


def test_a_version_is_the_same_however_it_is_written_and_an_original_is_version_one() -> None:
    third = source_names("FlashAttention-3: Fast", "FA3")
    assert name_level(third, "flashattentionv3") == name_level(third, "flashattention3") == 2
    assert name_level(source_names("DeepSeek-V3", ""), "deepseek3") == 2
    assert name_level(source_names("EAGLE", ""), "eagle1") == 2
    assert name_level(source_names("EAGLE-2", ""), "eagle1") < 1
    assert "transformer" in query_keys("The Transformer")
    assert query_keys("the") == ["the", "~the"]


@pytest.mark.postgres
def test_the_stored_names_are_the_python_names_for_every_shipped_source(
    full_catalog: LoadReport,
) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT id, search_names FROM catalog_source")
        in_sql = {pk: set(names) for pk, names in cursor.fetchall()}
    sources = Source.objects.all()
    assert len(sources) > 100
    for source in sources:
        assert in_sql[source.pk] == source_names(source.title, source.aliases), source.slug


@pytest.mark.postgres
def test_looking_a_query_up_uses_the_names_index(full_catalog: LoadReport) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SET enable_seqscan = off")
        cursor.execute("EXPLAIN SELECT id FROM catalog_source WHERE search_names && ARRAY['pmpp']")
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "catalog_source_search_names_idx" in plan
