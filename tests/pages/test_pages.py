import pytest
from django.test import Client
from django.urls import reverse
from pytest_django import Settings

from catalog.related.compute import recompute_neighbours
from tests.hints import Grow, SmallCatalog

pytestmark = pytest.mark.django_db


def test_home_draws_the_path_in_order(client: Client, small_catalog: SmallCatalog) -> None:
    html = client.get("/").content.decode()
    positions = [html.index(s.title) for s in small_catalog["path"]]
    assert positions == sorted(positions)
    assert "Kernel engineering" in html  # topics with counts
    assert "Primary sources" in html  # reading lists


def test_source_detail_shows_facts_and_citations(
    client: Client, small_catalog: SmallCatalog
) -> None:
    flash = small_catalog["flash"]
    recompute_neighbours()  # after a commit, which a test's transaction never reaches
    response = client.get(flash.get_absolute_url())
    assert response.status_code == 200
    html = response.content.decode()
    for text in [
        "FlashAttention",
        "Tri Dao et al.",
        "2022",
        "Core",
        "Attention kernels",
        "Paper that introduced the mechanism",
        "FA1",
        flash.url,
    ]:
        assert text in html
    # Related: the other attention source is about attention too.
    assert "Attention Is All You Need" in html


def test_topic_page_includes_subtopics(client: Client, small_catalog: SmallCatalog) -> None:
    kernels = small_catalog["topics"][0]
    html = client.get(kernels.get_absolute_url()).content.decode()
    assert "FlashAttention" in html and "Roofline" in html
    assert "How to Scale Your Model" not in html


def test_tier_page_shows_rule_and_list_rules(client: Client, small_catalog: SmallCatalog) -> None:
    html = client.get(reverse("pages:tier-detail", args=["start-here"])).content.decode()
    assert "The path, in order" in html
    assert "Primary sources only." in html
    assert "FlashAttention" not in html


def test_list_page_in_its_own_order(client: Client, small_catalog: SmallCatalog) -> None:
    html = client.get(small_catalog["list"].get_absolute_url()).content.decode()
    order = ["How to Scale Your Model", "Attention Is All You Need", "Roofline", "FlashAttention"]
    assert [html.index(t) for t in order] == sorted(html.index(t) for t in order)


def test_source_list_is_paginated(client: Client, many_sources: Grow, settings: Settings) -> None:
    settings.CATALOG_PAGE_SIZE = 10
    many_sources(25)
    html = client.get("/sources/?page=3").content.decode()
    assert "Page 3 of 3" in html
    assert html.count('class="card source-card') == 5


@pytest.mark.parametrize(
    "url",
    ["/sources/nope/", "/topics/nope/", "/tiers/nope/", "/lists/nope/", "/no/such/page/"],
)
def test_unknown_slugs_give_the_styled_404(client: Client, db: None, url: str) -> None:
    response = client.get(url)
    assert response.status_code == 404
    assert "We could not find that page" in response.content.decode()


@pytest.mark.parametrize(
    "query", ["?page=abc", "?page=-1", "?page=99999", "?page=%00", "?x=" + "a" * 5000, "?page=1e9"]
)
def test_malformed_query_strings_never_500(
    client: Client, small_catalog: SmallCatalog, query: str
) -> None:
    assert client.get("/sources/" + query).status_code == 200


def test_pages_refuse_unsafe_methods(client: Client, small_catalog: SmallCatalog) -> None:
    assert client.post("/").status_code == 405
