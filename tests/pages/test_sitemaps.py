"""/sitemap.xml: every public page of the site, on its configured domain, in sections whose
cost does not grow with the catalog."""

import xml.etree.ElementTree as ET

import pytest
from django.test import Client
from pytest_django import DjangoAssertNumQueries

from pages.sitemaps import SourceSitemap
from tests.factories import SourceFactory, TopicFactory
from tests.hints import Grow, SmallCatalog

SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"


def locations(client: Client, url: str) -> list[str]:
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/xml")
    return [loc.text or "" for loc in ET.fromstring(response.content).iter(f"{SITEMAP}loc")]


def sitemap_urls(client: Client) -> list[str]:
    """Every page URL, found as a crawler does: the index, then each sitemap it lists."""
    sections = locations(client, "/sitemap.xml")
    assert all(url.startswith("http://readinglist.test/sitemap-") for url in sections)
    return [url for section in sections for url in locations(client, section)]


def test_sitemap_lists_every_public_page_on_the_configured_domain(
    client: Client, small_catalog: SmallCatalog
) -> None:
    retired = SourceFactory(slug="gone", status="retired")
    urls = sitemap_urls(client)
    assert all(url.startswith("http://readinglist.test/") for url in urls)
    paths = {url.removeprefix("http://readinglist.test") for url in urls}
    assert {
        "/",
        "/sources/",
        "/topics/",
        "/tiers/",
        "/lists/",
        "/changes/",
        "/proposals/decisions/",
        "/sources/flashattention/",
        "/topics/kernels/",
        "/tiers/core/",
        "/lists/wafer/",
    } <= paths
    assert f"/sources/{retired.slug}/" not in paths
    assert not any(path.startswith(("/library/", "/accounts/", "/admin/")) for path in paths)


def test_sitemap_runs_the_same_queries_whatever_the_catalog_size(
    client: Client,
    small_catalog: SmallCatalog,
    many_sources: Grow,
    django_assert_max_num_queries: DjangoAssertNumQueries,
) -> None:
    def crawl() -> list[str]:
        # The index: the site record, a count per section and the sources' and public paths'
        # latest change.
        with django_assert_max_num_queries(9):
            sections = locations(client, "/sitemap.xml")
        urls = []
        for section in sections:
            with django_assert_max_num_queries(2):  # a count and a page of rows
                urls += locations(client, section)
        return urls

    small = len(crawl())
    many_sources(60)
    TopicFactory.create_batch(5)
    assert len(crawl()) == small + 60 + 1 + 5  # the bulk topic, five more


def test_sources_come_in_pages_the_index_lists(
    client: Client, small_catalog: SmallCatalog, many_sources: Grow, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(SourceSitemap, "limit", 4)
    sources = many_sources(5)
    sections = locations(client, "/sitemap.xml")
    assert "http://readinglist.test/sitemap-sources.xml?p=3" in sections
    urls = sitemap_urls(client)
    assert all(f"http://readinglist.test/sources/{s.slug}/" in urls for s in sources)
