from collections.abc import Iterator

import pytest
from django.core.cache import cache
from pytest_django import Settings

from .metadata_server import MetadataServer


@pytest.fixture
def metadata_server(settings: Settings, db: None) -> Iterator[MetadataServer]:
    """The metadata APIs served on loopback, with the SSRF guard letting 127.0.0.1 through."""
    with MetadataServer() as server:
        settings.ARXIV_API_URL = f"{server.base}/arxiv/query"
        settings.CROSSREF_API_URL = f"{server.base}/crossref/works"
        settings.GITHUB_API_URL = f"{server.base}/github"
        settings.METADATA_ALLOWED_HOSTS = ["127.0.0.1"]
        cache.clear()
        yield server
    cache.clear()
