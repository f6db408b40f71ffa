"""One identity for every URL: the save page, the live check, the form, the admin's accept and
imports see through URL noise, identifiers and pending proposals, and hostile URLs get a clear
error, never a 500."""

from urllib.parse import parse_qs, urlsplit

import pytest
from django.core.exceptions import ValidationError
from django.test import Client

from accounts.models import User
from catalog.models import Source
from proposals.duplicates import find_duplicates
from proposals.metadata.htmlmeta import page_metadata
from proposals.services import accept_proposal
from proposals.titles import clean_title
from tests.factories import SourceFactory
from tests.hints import SmallCatalog, Tiers

from .helpers import form_data, make_proposal

pytestmark = pytest.mark.django_db

HOSTILE = ["http://example.com:99999/", "http://[::1/", "http://[2001:db8::1]/"]


class Works(SmallCatalog):
    vllm: Source
    sarathi: Source


@pytest.fixture
def works(small_catalog: SmallCatalog, tiers: Tiers) -> Works:
    vllm = SourceFactory(
        slug="vllm", title="vLLM", url="https://github.com/vllm-project/vllm", kind="repository"
    )
    sarathi = SourceFactory(
        slug="sarathi-serve",
        title="Sarathi-Serve",
        url="https://www.usenix.org/system/files/osdi24-agrawal.pdf",
        kind="paper",
        arxiv_id="2403.02310",
    )
    return {"vllm": vllm, "sarathi": sarathi, **small_catalog}


@pytest.mark.parametrize(
    "url",
    [
        "https://github.com/vllm-project/vllm?utm_source=newsletter",
        "https://www.github.com/vllm-project/vllm/tree/main",
        "https://github.com/vllm-project/vllm/blob/main/README.md#install",
        "https://github.com/vllm-project/vllm.git",
    ],
)
def test_save_finds_a_repository_through_url_noise(
    signed_in: Client, works: Works, url: str
) -> None:
    page = signed_in.get("/save/", {"url": url}).content.decode()
    assert 'href="/sources/vllm/"' in page


def test_the_arxiv_page_of_a_paper_catalogued_at_its_venue_is_the_same_work(
    signed_in: Client, works: Works
) -> None:
    for url in ("https://arxiv.org/abs/2403.02310v2", "arXiv:2403.02310"):
        page = signed_in.get("/propose/check/", {"url": url}).content.decode()
        assert 'href="/sources/sarathi-serve/"' in page


def test_a_pending_proposal_is_found_by_any_key_and_letter_case(
    signed_in: Client, works: Works, other_reader: User
) -> None:
    make_proposal(works, other_reader, url="https://Example.org/Papers/Kernel", title="Kernels")
    make_proposal(works, other_reader, url="https://arxiv.org/abs/2501.00001", title="Other")
    for url in ("https://example.org/papers/kernel?utm_source=x", "2501.00001v2"):
        report = find_duplicates(url=url)
        assert report.proposal is not None, url


def test_a_title_only_check_finds_a_pending_proposal(
    signed_in: Client, works: Works, other_reader: User
) -> None:
    make_proposal(works, other_reader, title="Fused Kernels: A Study")
    page = signed_in.get("/propose/check/", {"title": "fused kernels a study!"}).content.decode()
    assert "already been proposed" in page or "waiting for a decision" in page


def test_the_form_refuses_a_work_pending_under_the_same_title(
    signed_in: Client, works: Works, other_reader: User
) -> None:
    make_proposal(works, other_reader, title="Fused Kernels: A Study")
    data = form_data(works, url="https://example.org/elsewhere", title="Fused kernels — a study")
    response = signed_in.post("/propose/", data)
    assert response.status_code == 200
    assert "already been proposed" in response.content.decode()


def test_accept_refuses_a_work_catalogued_under_another_key(
    reader: User, maintainer: User, works: Works
) -> None:
    proposal = make_proposal(works, reader, url="https://example.org/preprint")
    with pytest.raises(ValidationError) as error:
        accept_proposal(
            proposal=proposal,
            by=maintainer,
            overrides={"url": "https://arxiv.org/pdf/2403.02310v1"},
        )
    assert "Sarathi-Serve" in str(error.value) and "arXiv id" in str(error.value)


def test_accept_refuses_a_work_another_proposal_is_waiting_with(
    reader: User, other_reader: User, maintainer: User, works: Works
) -> None:
    first = make_proposal(works, reader, url="https://example.org/paper")
    make_proposal(works, other_reader, url="https://example.org/other", title="Second")
    first.url = "https://example.org/other?utm_source=feed"
    first.save()
    with pytest.raises(ValidationError) as error:
        accept_proposal(proposal=first, by=maintainer)
    assert "also proposed" in str(error.value)


@pytest.mark.parametrize("url", HOSTILE)
def test_hostile_urls_never_give_a_server_error(signed_in: Client, works: Works, url: str) -> None:
    responses = [
        signed_in.get("/save/", {"url": url}),
        signed_in.get("/propose/check/", {"url": url, "title": "x"}),
        signed_in.get("/propose/check/", {"url": url}, headers={"HX-Request": "true"}),
        signed_in.get("/propose/", {"url": url}),
        signed_in.post("/propose/", form_data(works, url=url)),
        signed_in.post("/propose/fill/", {"url": url}),
    ]
    assert [response.status_code < 500 for response in responses] == [True] * len(responses)


@pytest.mark.parametrize("url", HOSTILE[:2])
def test_an_invalid_address_is_named_as_such(signed_in: Client, works: Works, url: str) -> None:
    saved = signed_in.get("/save/", {"url": url})
    assert saved.status_code == 400
    assert "not a valid web address" in saved.content.decode()
    checked = signed_in.get("/propose/check/", {"url": url}, headers={"HX-Request": "true"})
    assert "not a valid web address" in checked.content.decode()


def test_a_hostile_url_is_refused_by_the_form_with_its_reason(
    signed_in: Client, works: Works
) -> None:
    response = signed_in.post("/propose/", form_data(works, url="http://example.com:99999/"))
    assert "Enter the full address of the source" in response.content.decode()


def test_save_cleans_the_bookmarklet_title_and_url(signed_in: Client, works: Works) -> None:
    response = signed_in.get(
        "/save/",
        {
            "url": "https://example.org/post/?utm_source=twitter&id=3#top",
            "title": "[2403.99999] A good post | Example Blog",
        },
    )
    query = parse_qs(urlsplit(response["Location"]).query)
    assert query == {"url": ["https://example.org/post?id=3"], "title": ["A good post"]}


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("[2403.02310] Taming Throughput-Latency Tradeoff", "Taming Throughput-Latency Tradeoff"),
        ("[arXiv:2403.02310v2] Sarathi-Serve", "Sarathi-Serve"),
        ("My post | Example Blog", "My post"),
        ("Understanding KV caches - Medium", "Understanding KV caches"),
        ("Some Title \u2014 Site", "Some Title"),
        ("Mamba - Linear-Time Sequence Modeling", "Mamba - Linear-Time Sequence Modeling"),
        ("GitHub - vllm-project/vllm: A fast engine", "vllm-project/vllm: A fast engine"),
    ],
)
def test_titles_lose_identifier_prefixes_and_site_names(raw: str, clean: str) -> None:
    assert clean_title(raw) == clean


def test_autofill_prefers_citation_title_then_open_graph_without_the_site_name() -> None:
    page = (
        '<title>Paper | Site</title><meta property="og:title" content="OG Paper - The Long Site">'
        '<meta property="og:site_name" content="The Long Site">'
    )
    assert page_metadata(page)["title"] == "OG Paper"
    cited = page + '<meta name="citation_title" content="The Cited Paper | Title">'
    assert page_metadata(cited)["title"] == "The Cited Paper | Title"
    assert page_metadata("<title>Only a title — Blog</title>")["title"] == "Only a title"
