"""An identifier in the search box finds its source first: an arXiv id in any spelling, a DOI,
a DOI or arXiv URL."""

import pytest
from django.test import Client

from catalog.models.sources import Source
from tests.factories import SourceFactory
from tests.hints import SmallCatalog, Tiers

pytestmark = pytest.mark.django_db


@pytest.fixture
def sarathi(small_catalog: SmallCatalog, tiers: Tiers) -> Source:
    SourceFactory(slug="decoy", title="Throughput 2403 notes", summary="2403.02310 is cited here.")
    return SourceFactory(
        slug="sarathi-serve",
        title="Sarathi-Serve",
        kind="paper",
        url="https://www.usenix.org/conference/osdi24/presentation/agrawal",
        arxiv_id="2403.02310",
        doi="10.5555/3691938.3691945",
        tier=tiers["core"],
    )


@pytest.mark.parametrize(
    "query",
    [
        "2403.02310",
        "arXiv:2403.02310v2",
        "https://arxiv.org/abs/2403.02310v1",
        "10.5555/3691938.3691945",
        "https://doi.org/10.5555/3691938.3691945",
        "doi:10.5555/3691938.3691945",
    ],
)
def test_an_identifier_finds_its_source_first(client: Client, sarathi: Source, query: str) -> None:
    response = client.get("/sources/", {"q": query})
    assert response.status_code == 200
    page = response.content.decode()
    first = page.find('href="/sources/sarathi-serve/"')
    assert first != -1, query
    for other in ("decoy", "flashattention"):
        position = page.find(f'href="/sources/{other}/"')
        assert position == -1 or position > first, (query, other)


def test_words_are_not_taken_for_identifiers(client: Client, sarathi: Source) -> None:
    page = client.get("/sources/", {"q": "throughput notes"}).content.decode()
    assert 'href="/sources/decoy/"' in page
    assert 'href="/sources/sarathi-serve/"' not in page
