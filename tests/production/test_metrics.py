"""Metrics for Prometheus behind a bearer token, and error reports to Sentry when configured."""

import pytest
import sentry_sdk

from readinglist import __version__
from readinglist.settings_parts.reporting import start_error_reporting

TOKEN = "a-scraper-token-0123456789"


@pytest.mark.django_db
def test_without_a_configured_token_there_are_no_metrics(client, settings):
    settings.METRICS_TOKEN = ""
    response = client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
    assert response.status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize("header", ["", "Bearer wrong-token", f"Basic {TOKEN}", f"Bearer {TOKEN}x"])
def test_a_missing_or_wrong_token_gets_a_404(client, settings, header):
    settings.METRICS_TOKEN = TOKEN
    extra = {"HTTP_AUTHORIZATION": header} if header else {}
    response = client.get("/metrics", **extra)
    assert response.status_code == 404
    assert b"django_http" not in response.content


@pytest.mark.django_db
def test_the_scraper_gets_request_counts_by_an_internal_address(client, settings):
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


def test_error_reporting_is_off_without_a_dsn(monkeypatch):
    started = []
    monkeypatch.setattr(sentry_sdk, "init", lambda **options: started.append(options))
    assert start_error_reporting("", environment="production", traces_sample_rate=0.0) is False
    assert started == []


def test_error_reports_carry_the_release_and_no_personal_data(monkeypatch):
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
