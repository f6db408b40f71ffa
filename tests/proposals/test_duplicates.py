"""Duplicates are found by any name a work goes by, in a handful of queries."""

import pytest
from django.test import Client

from accounts.models import User
from catalog.models import Source
from proposals.duplicates import find_duplicates
from tests.factories import ListEntryFactory, SourceFactory
from tests.hints import SmallCatalog, Tiers

pytestmark = pytest.mark.django_db


@pytest.fixture
def catalog(small_catalog: SmallCatalog, tiers: Tiers) -> dict[str, Source]:
    flash = small_catalog["flash"]
    flash.url = "https://arxiv.org/abs/2205.14135"
    flash.evidence_implementation_url = "https://github.com/dao-ailab/flash-attention"
    flash.save()
    paged = SourceFactory(
        slug="pagedattention",
        title="vLLM: PagedAttention",
        url="https://dl.acm.org/doi/10.1145/3600006.3613165",
        kind="paper",
        tier=tiers["core"],
        aliases="PagedAttention, Efficient Memory Management for Large Language Model Serving "
        "with PagedAttention",
    )
    smooth = SourceFactory(
        slug="smoothquant", title="SmoothQuant paper", kind="paper", tier=tiers["core"]
    )
    ListEntryFactory(
        section=small_catalog["list"].sections.get(slug="core"),
        source=smooth,
        position=2,
        label="SmoothQuant: Accurate and Efficient Post-Training Quantization for LLMs",
    )
    return {"flash": flash, "paged": paged, "smooth": smooth}


@pytest.mark.parametrize(
    "url",
    [
        "https://arxiv.org/abs/2205.14135",
        "https://arxiv.org/pdf/2205.14135v2",
        "http://www.arxiv.org/abs/2205.14135v1/",
        "https://export.arxiv.org/abs/2205.14135",
        "2205.14135",
        "arXiv:2205.14135v3",
    ],
)
def test_arxiv_id_in_any_form(catalog: dict[str, Source], url: str) -> None:
    report = find_duplicates(url=url)
    assert report.source == catalog["flash"]
    assert report.matched_by in {"URL", "arXiv id"}


@pytest.mark.parametrize(
    "url", ["https://doi.org/10.1145/3600006.3613165", "https://dx.doi.org/10.1145/3600006.3613165"]
)
def test_doi_finds_a_source_whose_url_carries_it(catalog: dict[str, Source], url: str) -> None:
    report = find_duplicates(url=url)
    assert report.source == catalog["paged"]
    assert report.matched_by == "DOI"


def test_an_alias_is_a_name_of_the_source(catalog: dict[str, Source]) -> None:
    title = "Efficient Memory Management for Large Language Model Serving with PagedAttention"
    report = find_duplicates(title=title)
    assert report.similar[0].source == catalog["paged"]
    assert report.similar[0].reason.startswith("also known as")


def test_a_title_with_a_subtitle_finds_the_short_title(catalog: dict[str, Source]) -> None:
    report = find_duplicates(title="FlashAttention: Fast and Memory-Efficient Exact Attention")
    assert report.similar[0].source == catalog["flash"]


def test_a_list_label_is_a_name_of_the_source(catalog: dict[str, Source]) -> None:
    title = "SmoothQuant: Accurate and Efficient Post-Training Quantization for LLMs"
    report = find_duplicates(title=title)
    assert report.similar[0].source == catalog["smooth"]


def test_fuzzy_title_similarity(catalog: dict[str, Source]) -> None:
    report = find_duplicates(title="Flash Attention")
    assert [m.source for m in report.similar][:1] == [catalog["flash"]]


def test_unrelated_title_finds_nothing(catalog: dict[str, Source]) -> None:
    assert find_duplicates(title="Quantum chromodynamics on a lattice").similar == []


def test_the_declared_implementation_repository_is_related_not_a_duplicate(
    catalog: dict[str, Source],
) -> None:
    report = find_duplicates(url="https://github.com/dao-ailab/flash-attention")
    assert report.source is None
    assert report.implements == [catalog["flash"]]


def test_a_repository_named_like_a_paper_is_related_not_a_duplicate(
    catalog: dict[str, Source],
) -> None:
    repository = "https://github.com/someone/flashattention"
    report = find_duplicates(url=repository, title="FlashAttention")
    assert not report.is_duplicate
    assert report.similar == []
    assert report.implements == [catalog["flash"]]


def test_the_check_page_links_every_match_to_its_source(
    client: Client, reader: User, catalog: dict[str, Source]
) -> None:
    client.force_login(reader)
    page = client.get(
        "/propose/check/",
        {
            "url": "https://github.com/dao-ailab/flash-attention",
            "title": "Efficient Memory Management for Large Language Model Serving with "
            "PagedAttention",
        },
        headers={"HX-Request": "true"},
    ).content.decode()
    assert 'related: implementation of <a href="/sources/flashattention/">' in page
    assert 'href="/sources/pagedattention/"' in page


def test_admin_similar_titles_uses_the_same_check(
    client: Client, maintainer: User, reader: User, catalog: dict[str, Source]
) -> None:
    from .helpers import make_proposal

    proposal = make_proposal(
        {"flash": catalog["flash"], "topics": list(catalog["flash"].topics.all()) * 2},
        reader,
        title="Efficient Memory Management for Large Language Model Serving with PagedAttention",
        url="https://example.org/vllm-paper",
    )
    client.force_login(maintainer)
    page = client.get(f"/admin/proposals/proposal/{proposal.pk}/change/").content.decode()
    assert "also known as" in page
    assert "vLLM: PagedAttention" in page
