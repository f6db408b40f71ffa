"""`migrate` creates the database cache tables: no second command for a recipe to forget."""

from django.core.cache import caches
from django.core.management.sql import emit_post_migrate_signal
from django.db import connection


def table_names():
    return set(connection.introspection.table_names())


def test_migrate_creates_the_missing_cache_tables(db, settings):
    assert {"readinglist_cache", "readinglist_pages"} <= table_names()
    with connection.cursor() as cursor:
        cursor.execute("DROP TABLE readinglist_cache")
        cursor.execute("DROP TABLE readinglist_pages")
    assert "readinglist_cache" not in table_names()

    emit_post_migrate_signal(verbosity=0, interactive=False, db="default")

    assert {"readinglist_cache", "readinglist_pages"} <= table_names()
    # A login's rate limit and session go through the default cache: it works again.
    caches["default"].set("after-migrate", "works")
    assert caches["default"].get("after-migrate") == "works"
