"""The site's public address: the sites record, robots.txt, the links emails carry."""

from urllib.robotparser import RobotFileParser

import pytest
from django.contrib.sites.models import Site
from django.core.management import call_command
from django.core.management.sql import emit_post_migrate_signal
from django.test import Client
from pytest_django import Settings

from tests.production.test_security import PRODUCTION, run_python, settings_value


def test_migrate_writes_the_configured_address_over_example_com(
    db: None, settings: Settings
) -> None:
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
def test_the_address_defaults_to_the_first_named_allowed_host(
    env: dict[str, str], domain: str
) -> None:
    assert settings_value("settings.SITE_DOMAIN", **(PRODUCTION | env)) == domain


def test_robots_txt_points_crawlers_at_the_sitemap_and_the_decision_log(
    client: Client, db: None
) -> None:
    text = client.get("/robots.txt").content.decode()
    assert "Sitemap: http://testserver/sitemap.xml" in text.splitlines()
    parser = RobotFileParser()
    parser.parse(text.splitlines())
    assert parser.can_fetch("AnyBot", "/proposals/decisions/")
    assert not parser.can_fetch("AnyBot", "/proposals/12/")


def test_the_address_survives_a_flush(transactional_db: None) -> None:
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
def test_emailed_links_use_the_sites_scheme_allauths_too(env: dict[str, str], scheme: str) -> None:
    values = settings_value(
        "[settings.SITE_SCHEME, settings.ACCOUNT_DEFAULT_HTTP_PROTOCOL, "
        "__import__('teams.emails').emails.site_url('/join/x/')]",
        **(PRODUCTION | {"SITE_DOMAIN": "reading.example.org"} | env),
    )
    assert values == [scheme, scheme, f"{scheme}://reading.example.org/join/x/"]


def test_an_unknown_scheme_is_refused() -> None:
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
def test_email_url_picks_a_transport_that_keeps_links_whole(url: str, backend: str) -> None:
    assert settings_value(
        "settings.MAILERS['default']['BACKEND']", **PRODUCTION, EMAIL_URL=url
    ) == (backend)
