"""`migrate` creates the database cache tables: no second command for a recipe to forget."""

import pytest
from django.core.cache import caches
from django.core.management.sql import emit_post_migrate_signal
from django.db import connection
from pytest_django import Settings

from readinglist.cache_tables import PRODUCTION_CACHE_TABLES
from tests.production.test_security import PRODUCTION, settings_value


def drop_cache_tables() -> None:
    with connection.cursor() as cursor:
        for table in PRODUCTION_CACHE_TABLES:
            cursor.execute(f"DROP TABLE {table}")
    assert not set(PRODUCTION_CACHE_TABLES) & set(connection.introspection.table_names())


def test_migrate_creates_the_missing_cache_tables(db: None) -> None:
    drop_cache_tables()
    emit_post_migrate_signal(verbosity=0, interactive=False, db="default")
    assert set(PRODUCTION_CACHE_TABLES) <= set(connection.introspection.table_names())
    # A login's rate limit and session go through the default cache: it works again.
    caches["default"].set("after-migrate", "works")
    assert caches["default"].get("after-migrate") == "works"


def test_a_development_migrate_prepares_the_database_for_production_settings(
    db: None, settings: Settings
) -> None:
    # `make migrate` runs with DEBUG (caches in memory); the local production recipe then
    # serves the same database with the database cache.
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    drop_cache_tables()
    emit_post_migrate_signal(verbosity=0, interactive=False, db="default")
    assert set(PRODUCTION_CACHE_TABLES) <= set(connection.introspection.table_names())


@pytest.mark.slow
def test_the_tables_are_the_ones_production_settings_use() -> None:
    locations = settings_value(
        "sorted(c['LOCATION'] for c in settings.CACHES.values())",
        **{**PRODUCTION, "DATABASE_URL": "sqlite:////tmp/unused.sqlite3"},
    )
    assert locations == sorted(PRODUCTION_CACHE_TABLES)
