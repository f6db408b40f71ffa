"""Keywords: a reader's words for what a source is about, searched beside its summary, on both
databases."""

import re

import pytest
from django.test import Client

from catalog.models import Source
from tests.factories import SourceFactory

pytestmark = pytest.mark.django_db


def result_slugs(client: Client, query: str) -> list[str]:
    response = client.get("/sources/", {"q": query})
    assert response.status_code == 200
    html = response.content.decode()
    region = html[html.index('<ol id="results"') :]
    region = region[: region.index("</ol>")]
    return re.findall(r'class="card-title"[^>]*><a href="/sources/([^/]+)/"', region)


@pytest.fixture
def sources(db: None) -> None:
    SourceFactory(
        slug="megatron",
        title="Megatron-LM",
        summary="Intra-layer tensor parallelism for transformers.",
        keywords="model too large for one GPU; splitting layers across GPUs",
    )
    SourceFactory(slug="sharding-guide", title="Splitting layers", summary="A guide.")
    SourceFactory(slug="roofline", title="Roofline", summary="A performance model.")


def test_words_only_the_keywords_have_find_the_source(client: Client, sources: None) -> None:
    assert result_slugs(client, "too large for one gpu") == ["megatron"]


def test_a_title_with_the_words_ranks_before_keywords_with_them(
    client: Client, sources: None
) -> None:
    assert result_slugs(client, "splitting layers") == ["sharding-guide", "megatron"]


def test_a_described_need_with_a_keyword_phrase_finds_the_source(
    client: Client, sources: None
) -> None:
    slugs = result_slugs(client, "my model is too large for the gpu memory")
    assert slugs[0] == "megatron"


def test_edited_keywords_are_searched_at_once(client: Client, sources: None) -> None:
    megatron = Source.objects.get(slug="megatron")
    megatron.keywords = "model sharding"
    megatron.save()
    assert result_slugs(client, "sharding") == ["megatron"]
    # The old keyword's words, less "one" (a word that counts: "one model", "one GPU").
    assert result_slugs(client, "too large for a gpu") == []


def test_a_short_word_is_a_whole_token_not_part_of_a_longer_one(client: Client, db: None) -> None:
    SourceFactory(slug="moe", title="Outrageously Large Neural Networks", summary="Experts.")
    SourceFactory(slug="cacheblend", title="CacheBlend", summary="Reuses caches for RAG.")
    assert result_slugs(client, "rag") == ["cacheblend"]
