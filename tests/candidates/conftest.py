from collections.abc import Iterator
from pathlib import Path

import pytest
from pytest_django import Settings

from catalog.models import Source
from tests.factories import SourceFactory, TopicFactory
from tests.hints import Tiers

from .feed_server import FeedServer

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def inbox_catalog(tiers: Tiers) -> dict[str, Source]:
    """A few catalogued sources with summaries the scorer can learn the field from."""
    kv = TopicFactory(slug="kv-cache", name="KV cache")
    spec = TopicFactory(slug="speculative-decoding", name="Speculative decoding")
    robots = TopicFactory(slug="kernels", name="Kernel engineering")
    paged = SourceFactory(
        slug="pagedattention",
        title="PagedAttention",
        url="https://arxiv.org/abs/2309.06180",
        summary="Pages the KV cache of LLM serving like virtual memory so long-context decoding "
        "wastes no GPU memory.",
        tier=tiers["core"],
        topics=[kv],
    )
    SourceFactory(
        slug="speculative-decoding",
        title="Fast Inference from Transformers via Speculative Decoding",
        url="https://arxiv.org/abs/2211.17192",
        summary="A small draft model proposes tokens that the large model verifies in one "
        "forward pass, cutting decoding latency.",
        tier=tiers["core"],
        topics=[spec],
    )
    SourceFactory(
        slug="engine",
        title="An inference engine",
        url="https://github.com/example-org/engine",
        summary="An LLM inference engine with paged KV cache and speculative decoding kernels.",
        tier=tiers["core"],
        topics=[kv, robots],
    )
    return {"paged": paged}


@pytest.fixture
def feed_server(settings: Settings, db: None) -> Iterator[FeedServer]:
    with FeedServer() as server:
        settings.ARXIV_API_URL = f"{server.base}/arxiv/query"
        settings.CANDIDATES_GITHUB_URL = server.base
        settings.CANDIDATES_FEEDS = [f"Inference blog={server.base}/blog/feed.rss"]
        settings.CANDIDATES_ARXIV_DELAY = 0
        settings.CANDIDATES_RELEVANCE_CUT = 0.2
        settings.METADATA_ALLOWED_HOSTS = ["127.0.0.1"]
        yield server


@pytest.fixture
def saved_feed() -> Path:
    return FIXTURES / "arxiv_page.xml"
