"""Metrics for Prometheus behind a bearer token, and error reports to Sentry when configured."""

import pytest
import sentry_sdk
from django.test import Client
from pytest_django import Settings

from readinglist import __version__
from readinglist.settings_parts.reporting import start_error_reporting
from tests.hints import SmallCatalog

TOKEN = "a-scraper-token-0123456789"


@pytest.mark.django_db
def test_without_a_configured_token_there_are_no_metrics(
    client: Client, settings: Settings
) -> None:
    settings.METRICS_TOKEN = ""
    response = client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
    assert response.status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize("header", ["", "Bearer wrong-token", f"Basic {TOKEN}", f"Bearer {TOKEN}x"])
def test_a_missing_or_wrong_token_gets_a_404(
    client: Client, settings: Settings, header: str
) -> None:
    settings.METRICS_TOKEN = TOKEN
    headers = {"Authorization": header} if header else {}
    response = client.get("/metrics", headers=headers)
    assert response.status_code == 404
    assert b"django_http" not in response.content


@pytest.mark.django_db
def test_the_scraper_gets_request_counts_by_an_internal_address(
    client: Client, settings: Settings
) -> None:
    settings.METRICS_TOKEN = TOKEN
    client.get("/healthz")
    # A scraper comes by the container's address, which ALLOWED_HOSTS does not list.
    response = client.get(
        "/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}", HTTP_HOST="10.0.0.5:8000"
    )
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    body = response.content.decode()
    assert "django_http_requests_before_middlewares_total" in body
    assert "django_http_requests_latency_including_middlewares_seconds" in body


def test_error_reporting_is_off_without_a_dsn(monkeypatch: pytest.MonkeyPatch) -> None:
    started = []
    monkeypatch.setattr(sentry_sdk, "init", lambda **options: started.append(options))
    assert start_error_reporting("", environment="production", traces_sample_rate=0.0) is False
    assert started == []


def test_error_reports_carry_the_release_and_no_personal_data(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    started = []
    monkeypatch.setattr(sentry_sdk, "init", lambda **options: started.append(options))
    dsn = "https://public@errors.example.com/1"
    assert start_error_reporting(dsn, environment="staging", traces_sample_rate=0.1) is True
    (options,) = started
    assert options["dsn"] == dsn
    assert options["release"] == f"readinglist@{__version__}"
    assert options["environment"] == "staging"
    collected = options["data_collection"]
    assert collected["user_info"] is False
    assert collected["cookies"] == {"mode": "off"}
    assert collected["http_bodies"] == []


def scrape(client: Client) -> str:
    response = client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
    assert response.status_code == 200
    return response.content.decode()


def sample(body: str, name: str) -> float:
    """The value of the first sample line that starts with `name` (labels included)."""
    line = next(line for line in body.splitlines() if line.startswith(name))
    return float(line.rsplit(" ", 1)[1])


@pytest.mark.django_db
def test_page_cache_hits_and_misses_are_counted(
    client: Client, settings: Settings, small_catalog: SmallCatalog
) -> None:
    settings.METRICS_TOKEN = TOKEN
    settings.CATALOG_PAGE_CACHE = True
    before = scrape(client)
    hits = 'readinglist_page_cache_total{result="hit"}'
    misses = 'readinglist_page_cache_total{result="miss"}'
    was = {name: sample(before, name) if name in before else 0.0 for name in (hits, misses)}
    for _ in range(2):
        assert client.get("/topics/").status_code == 200
    after = scrape(client)
    assert sample(after, misses) >= was[misses] + 1
    assert sample(after, hits) >= was[hits] + 1


@pytest.mark.django_db
def test_each_jobs_age_and_lateness_are_scraped(client: Client, settings: Settings) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from operations.models import JobHeartbeat

    settings.METRICS_TOKEN = TOKEN
    now = timezone.now()
    JobHeartbeat.objects.create(name="clearsessions", last_succeeded=now - timedelta(hours=1))
    JobHeartbeat.objects.create(name="send_digests", last_succeeded=now - timedelta(days=9))
    body = scrape(client)
    assert 3500 < sample(body, 'readinglist_job_age_seconds{job="clearsessions"}') < 4000
    assert sample(body, 'readinglist_job_late{job="clearsessions"}') == 0.0
    assert sample(body, 'readinglist_job_late{job="send_digests"}') == 1.0
