"""The CACHES and TASKS settings: where shared state and background work live."""

from typing import Any

import environ
from django.core.exceptions import ImproperlyConfigured


def caches(env: environ.Env, debug: bool) -> dict[str, dict[str, Any]]:
    """Two caches, shared by every app process. `default` holds what must not be evicted:
    sessions, allauth's rate limits and the page cache's versions. `pages` holds rendered pages
    and may evict them: a flood of distinct URLs fills it, never `default`. Production defaults
    to database tables (`migrate` creates them: readinglist/cache_tables.py); REDIS_URL switches
    both to Redis, with short socket timeouts so a Redis outage costs a page its cache, not a
    worker its time (readinglist/pagecache/failsafe.py); only development keeps process memory.
    """
    page_cache_max_entries = env.int("PAGE_CACHE_MAX_ENTRIES", default=20_000)
    if env.str("REDIS_URL", default=""):
        return _redis_caches(env)
    if env.str("CACHE_URL", default=""):
        found: dict[str, dict[str, Any]] = {"default": env.cache_url("CACHE_URL")}
    elif debug:
        found = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    else:
        found = {
            "default": {
                "BACKEND": "django.core.cache.backends.db.DatabaseCache",
                "LOCATION": "readinglist_cache",
                "OPTIONS": {"MAX_ENTRIES": 20_000},
            }
        }
    found["pages"] = (
        {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "pages"}
        if debug
        else {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": "readinglist_pages",
            "OPTIONS": {"MAX_ENTRIES": page_cache_max_entries},
        }
    )
    return found


def _redis_caches(env: environ.Env) -> dict[str, dict[str, Any]]:
    timeout = env.float("REDIS_TIMEOUT", default=0.5)
    options = {"socket_connect_timeout": timeout, "socket_timeout": timeout}
    location = env("REDIS_URL")
    return {
        # Rate limits and the rest: an outage reads as empty (readinglist/cache.py says why).
        "default": {
            "BACKEND": "readinglist.cache.FailOpenRedisCache",
            "LOCATION": location,
            "OPTIONS": options,
        },
        # The page cache's versions, in the same Redis through a client that raises: a version
        # bump that fails must be known to have failed (readinglist/pagecache/versions.py).
        "versions": {
            # Django's backend, keeping one Redis client per pool (see readinglist/cache.py).
            "BACKEND": "readinglist.cache.RedisCache",
            "LOCATION": location,
            "OPTIONS": options,
        },
        "sessions": {
            "BACKEND": "readinglist.cache.FailOpenRedisCache",
            "LOCATION": location,
            "OPTIONS": options,
        },
        "pages": {
            "BACKEND": "readinglist.cache.RedisCache",
            # A Redis of its own (maxmemory with allkeys-lru) bounds the pages by memory alone.
            "LOCATION": env.str("PAGE_CACHE_REDIS_URL", default="") or location,
            "KEY_PREFIX": "pages",
            "OPTIONS": options,
        },
    }


_TASK_BACKENDS = {
    "database": "django_tasks_db.DatabaseBackend",
    "immediate": "django.tasks.backends.immediate.ImmediateBackend",
}


def tasks(env: environ.Env, debug: bool) -> dict[str, dict[str, Any]]:
    """Background tasks (django.tasks), e.g. recomputing related sources after a catalog change.
    TASKS_BACKEND=database stores them in a table for `manage.py db_worker` (docker-entrypoint.sh
    worker) to run; immediate runs each at once, in the process that enqueued it. Production
    defaults to database, development (DEBUG) to immediate, and the test suite sets immediate."""
    backend = env.str("TASKS_BACKEND", default="") or ("immediate" if debug else "database")
    if backend not in _TASK_BACKENDS:
        raise ImproperlyConfigured("TASKS_BACKEND must be database or immediate.")
    return {"default": {"BACKEND": _TASK_BACKENDS[backend]}}
