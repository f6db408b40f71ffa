"""Filling a proposal from an identifier: recorded arXiv, Crossref and GitHub answers and web
pages, all served on loopback; failures leave the form usable with a reason."""

import socket

import pytest
from pytest_django import Settings

from proposals.metadata import fill_from
from tests.proposals.metadata_server import MetadataServer


def test_arxiv_id_in_any_form_fills_title_authors_year_and_venue(
    metadata_server: MetadataServer,
) -> None:
    for typed in ["2205.14135", "arXiv:2205.14135v2", "https://arxiv.org/pdf/2205.14135v2"]:
        result = fill_from(typed)
        assert result.ok, result.problem
        assert result.url == "https://arxiv.org/abs/2205.14135"
        assert result.values() == {
            "title": "FlashAttention: Fast and Memory-Efficient Exact Attention with IO-Awareness",
            "authors": "Tri Dao et al.",
            "year": 2022,
            "venue": "arXiv",
            "kind": "paper",
        }
        assert result.metadata["abstract"].startswith("Transformers are slow")
    # The answer is cached: one request for three spellings of the same paper.
    assert len(metadata_server.requests) == 1


def test_requests_name_the_site_and_a_contact(
    metadata_server: MetadataServer, settings: Settings
) -> None:
    fill_from("2205.14135")
    agent = metadata_server.requests[0]["user_agent"]
    assert settings.SITE_DOMAIN in agent
    assert settings.LINKCHECK_CONTACT_URL in agent


def test_doi_fills_from_crossref(metadata_server: MetadataServer) -> None:
    result = fill_from("https://doi.org/10.1145/3600006.3613165")
    assert result.ok, result.problem
    assert result.url == "https://doi.org/10.1145/3600006.3613165"
    values = result.values()
    assert values["title"].startswith("Efficient Memory Management for Large Language Model")
    assert values["authors"] == "Woosuk Kwon et al."
    assert values["year"] == 2023
    assert values["venue"] == "Proceedings of the 29th Symposium on Operating Systems Principles"
    assert "<jats:p>" not in result.metadata["abstract"]


def test_github_repository_fills_from_the_api(metadata_server: MetadataServer) -> None:
    result = fill_from("https://github.com/Dao-AILab/flash-attention")
    assert result.ok, result.problem
    assert result.values() == {
        "title": "flash-attention",
        "authors": "Dao-AILab",
        "year": 2022,
        "venue": "GitHub",
        "kind": "repository",
    }
    assert result.metadata["abstract"] == "Fast and memory-efficient exact attention"


def test_web_page_fills_from_open_graph(metadata_server: MetadataServer) -> None:
    result = fill_from(f"{metadata_server.base}/pages/article.html")
    assert result.ok, result.problem
    assert result.values() == {
        "title": "Making Deep Learning Go Brrrr From First Principles",
        "authors": "Horace He",
        "year": 2022,
        "venue": "Horace He's blog",
        "kind": "article",
    }


def test_scholarly_page_fills_from_citation_tags(metadata_server: MetadataServer) -> None:
    result = fill_from(f"{metadata_server.base}/pages/paper_page.html")
    assert result.values()["title"].startswith("Taming Throughput-Latency Tradeoff")
    assert result.values()["authors"] == "Amey Agrawal, Nitin Kedia"
    assert result.values()["kind"] == "paper"


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("2399.99999", "arXiv has no paper with the id 2399.99999."),
        ("10.9999/nothing.here", "Crossref knows no work with the DOI 10.9999/nothing.here."),
        ("https://github.com/nobody/nothing", "GitHub has no public repository nobody/nothing."),
    ],
)
def test_an_identifier_that_does_not_exist_says_so(
    metadata_server: MetadataServer, typed: str, message: str
) -> None:
    result = fill_from(typed)
    assert not result.ok
    assert result.problem.startswith(message)


def test_a_slow_server_times_out(metadata_server: MetadataServer, settings: Settings) -> None:
    settings.OUTBOUND_DEADLINE_SECONDS = 0.3
    result = fill_from(f"{metadata_server.base}/slow")
    assert (
        result.problem == "Couldn't fetch: 127.0.0.1 took too long to answer. Fill it in yourself."
    )


def test_without_the_network_the_reader_fills_it_in(
    metadata_server: MetadataServer, settings: Settings
) -> None:
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    settings.ARXIV_API_URL = f"http://127.0.0.1:{port}/api/query"
    result = fill_from("2205.14135")
    assert result.problem == (
        "Couldn't fetch: 127.0.0.1 could not be reached. Fill it in yourself."
    )


def test_redirects_are_followed_a_few_times_only(metadata_server: MetadataServer) -> None:
    followed = fill_from(f"{metadata_server.base}/redirect/%2Fpages%2Farticle.html")
    assert followed.ok, followed.problem
    looping = fill_from(f"{metadata_server.base}/loop/1")
    assert (
        looping.problem == "Couldn't fetch: It redirected more than 3 times. Fill it in yourself."
    )
    assert len([r for r in metadata_server.requests if r["path"].startswith("/loop/")]) == 4


def test_something_that_is_no_identifier_says_what_to_paste(
    metadata_server: MetadataServer,
) -> None:
    assert fill_from("not a link").problem.startswith("Paste an arXiv id, a DOI")
