"""The site's public address: the sites record, the sitemap and robots.txt."""

import xml.etree.ElementTree as ET
from urllib.robotparser import RobotFileParser

import pytest
from django.contrib.sites.models import Site
from django.core.management import call_command
from django.core.management.sql import emit_post_migrate_signal

from catalog.sitemaps import SourceSitemap
from tests.factories import SourceFactory, TopicFactory
from tests.production.test_security import PRODUCTION, run_python, settings_value

SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"


def locations(client, url):
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/xml")
    return [loc.text for loc in ET.fromstring(response.content).iter(f"{SITEMAP}loc")]


def sitemap_urls(client):
    """Every page URL, found as a crawler does: the index, then each sitemap it lists."""
    sections = locations(client, "/sitemap.xml")
    assert all(url.startswith("http://readinglist.test/sitemap-") for url in sections)
    return [url for section in sections for url in locations(client, section)]


def test_migrate_writes_the_configured_address_over_example_com(db, settings):
    site = Site.objects.get_current()
    assert (site.domain, site.name) == ("readinglist.test", "readinglist")
    settings.SITE_DOMAIN, settings.SITE_NAME = "reading.example.org", "Team reading"
    emit_post_migrate_signal(verbosity=0, interactive=False, db="default")
    site = Site.objects.get_current()
    assert (site.domain, site.name) == ("reading.example.org", "Team reading")


@pytest.mark.parametrize(
    ("env", "domain"),
    [
        ({"ALLOWED_HOSTS": ".example.org,www.example.org"}, "example.org"),
        ({"ALLOWED_HOSTS": "*,reading.example.org"}, "reading.example.org"),
        ({"SITE_DOMAIN": "reading.example.net"}, "reading.example.net"),
    ],
    ids=["first-allowed-host", "skips-wildcards", "explicit"],
)
def test_the_address_defaults_to_the_first_named_allowed_host(env, domain):
    assert settings_value("settings.SITE_DOMAIN", **(PRODUCTION | env)) == domain


def test_sitemap_lists_every_public_page_on_the_configured_domain(client, small_catalog):
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
    client, small_catalog, many_sources, django_assert_max_num_queries
):
    def crawl():
        # The index: the site record, a count per section and the sources' latest change.
        with django_assert_max_num_queries(7):
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


def test_sources_come_in_pages_the_index_lists(client, small_catalog, many_sources, monkeypatch):
    monkeypatch.setattr(SourceSitemap, "limit", 4)
    sources = many_sources(5)
    sections = locations(client, "/sitemap.xml")
    assert "http://readinglist.test/sitemap-sources.xml?p=3" in sections
    urls = sitemap_urls(client)
    assert all(f"http://readinglist.test/sources/{s.slug}/" in urls for s in sources)


def test_robots_txt_points_crawlers_at_the_sitemap_and_the_decision_log(client, db):
    text = client.get("/robots.txt").content.decode()
    assert "Sitemap: http://testserver/sitemap.xml" in text.splitlines()
    parser = RobotFileParser()
    parser.parse(text.splitlines())
    assert parser.can_fetch("AnyBot", "/proposals/decisions/")
    assert not parser.can_fetch("AnyBot", "/proposals/12/")


def test_the_address_survives_a_flush(transactional_db):
    # flush re-creates the record through post_migrate, as django.contrib.sites does.
    call_command("flush", interactive=False, verbosity=0)
    assert Site.objects.get_current().domain == "readinglist.test"


@pytest.mark.parametrize(
    ("env", "scheme"),
    [
        ({}, "https"),
        ({"DEBUG": "true"}, "http"),
        ({"SITE_SCHEME": "http"}, "http"),
        ({"DEBUG": "true", "SITE_SCHEME": "HTTPS"}, "https"),
    ],
    ids=["production", "debug", "plain-http-production", "explicit"],
)
def test_emailed_links_use_the_sites_scheme_allauths_too(env, scheme):
    values = settings_value(
        "[settings.SITE_SCHEME, settings.ACCOUNT_DEFAULT_HTTP_PROTOCOL, "
        "__import__('teams.emails').emails.site_url('/join/x/')]",
        **(PRODUCTION | {"SITE_DOMAIN": "reading.example.org"} | env),
    )
    assert values == [scheme, scheme, f"{scheme}://reading.example.org/join/x/"]


def test_an_unknown_scheme_is_refused():
    result = run_python(["manage.py", "check"], **PRODUCTION, SITE_SCHEME="ftp")
    assert result.returncode != 0
    assert "SITE_SCHEME must be http or https" in result.stderr


@pytest.mark.parametrize(
    ("url", "backend"),
    [
        ("consolemail://", "readinglist.mail.ConsoleEmailBackend"),
        ("smtp+tls://user:secret@smtp.example.org:587", "readinglist.mail.SMTPEmailBackend"),
    ],
)
def test_email_url_picks_a_transport_that_keeps_links_whole(url, backend):
    assert settings_value(
        "settings.MAILERS['default']['BACKEND']", **PRODUCTION, EMAIL_URL=url
    ) == (backend)
