"""Create the database cache tables whenever the schema is migrated.

Production keeps its caches (sessions, rate limits, pages) in database tables unless REDIS_URL
is set, and a missing table answers every login with the 503 page. `createcachetable` was a
second command that every recipe had to remember; running it after `migrate` makes one command
enough. The production tables are created whatever this process's own caches are: a database
migrated by `make migrate` (DEBUG, caches in memory) must still serve production settings. Only
missing tables are created, so a later migrate costs a query each.
"""

from django.apps import AppConfig
from django.conf import settings
from django.core.management import call_command
from django.db import DEFAULT_DB_ALIAS

# The tables the settings (readinglist/settings_parts/caches.py) name for the `default` and
# `pages` caches in production.
PRODUCTION_CACHE_TABLES = ("readinglist_cache", "readinglist_pages")


def database_cache_tables() -> list[str]:
    configured = [
        cache["LOCATION"]
        for cache in settings.CACHES.values()
        if cache["BACKEND"] == "django.core.cache.backends.db.DatabaseCache"
    ]
    return sorted({*PRODUCTION_CACHE_TABLES, *configured})


def create_cache_tables(sender: AppConfig, using: str = DEFAULT_DB_ALIAS, **kwargs: object) -> None:
    # post_migrate fires once per app: act on one of them, so a migrate does this once.
    if sender.label != "catalog":
        return
    call_command("createcachetable", *database_cache_tables(), database=using, verbosity=0)
