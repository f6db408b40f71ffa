import json

import psycopg
import pytest
from django.db import OperationalError
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from pytest_django import DjangoAssertNumQueries

import readinglist
from readinglist import health


@pytest.fixture
def fresh_readiness(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(health, "_migrated", False)


def test_healthz_needs_no_database(
    client: Client, db: None, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    with django_assert_num_queries(0):
        response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "version": readinglist.__version__}
    assert "no-cache" in response["Cache-Control"]


def test_readyz_is_ok_when_the_database_answers_and_is_migrated(
    client: Client, db: None, fresh_readiness: None
) -> None:
    response = client.get("/readyz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


def test_readyz_reports_pending_migrations(
    client: Client, db: None, fresh_readiness: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(MigrationExecutor, "migration_plan", lambda self, targets: [("m", False)])
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json() == {"status": "unavailable", "reason": "1 migration(s) not applied"}
    assert response["Retry-After"] == "5"


def test_readyz_reports_an_unreachable_database(
    client: Client, db: None, fresh_readiness: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    class Unreachable:
        def cursor(self) -> None:
            raise OperationalError("connection refused")

    def refused() -> None:
        raise psycopg.OperationalError("connection refused")

    monkeypatch.setattr(health, "connections", {"default": Unreachable()})
    monkeypatch.setattr(health, "_select_one", refused)
    response = client.get("/readyz")
    assert response.status_code == 503
    body = json.loads(response.content)
    assert body["reason"] == "database unreachable: OperationalError"


def test_readyz_reports_a_cache_outage_as_degraded(
    client: Client, db: None, fresh_readiness: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    class Down:
        def get(self, key: str) -> None:
            raise ConnectionRefusedError("cache refused")

    monkeypatch.setattr(health, "caches", {"default": Down(), "pages": Down()})
    response = client.get("/readyz")
    assert response.status_code == 200
    assert "degraded" in response.content.decode()


def test_probes_answer_only_safe_methods(client: Client, db: None) -> None:
    assert client.post("/healthz").status_code == 405
    assert client.head("/healthz").status_code == 200
