"""Django's Redis cache backend, keeping one client per connection pool.

Django's client builds a new `redis.Redis` for every cache call. Building one sets up its
response callbacks afresh (a few hundred dict writes), which costs more than the round trip to a
local Redis itself, and the anonymous page cache and cached sessions read the cache on every
request. A `redis.Redis` over a connection pool is safe to share between threads (each command
borrows a connection), so one per pool is kept. Configure with BACKEND =
"readinglist.cache.RedisCache"; everything else is Django's.

FailOpenRedisCache is for what may be lost or has a copy elsewhere: a Redis that is down or slow
reads as a miss, drops writes and grants locks, logged at most once a minute. Sessions are kept in
the database too. allauth's rate limits read the default cache: during an outage they lift
(logins go on, unthrottled) rather than turn every sign-in into a server error. The page cache's
versions must know when a write failed, so they have an alias of their own that raises.
Django's cached_db sessions fall back to the database on a failed read but not on the refill
after it, nor on a lookup or delete. While Redis is unreachable but keeps its data (a network
partition rather than a restart), a session deleted then (a logout) lives on in Redis until it
expires.
"""

from collections.abc import Callable
from typing import Any

from django.core.cache.backends import redis as django_redis
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from redis import Redis

from .pagecache.failsafe import CACHE_ERRORS, warn


class RedisCacheClient(django_redis.RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Redis] = {}

    # django-stubs leaves out the two private members of Django's client used here.
    def get_client(self, key: Any = None, *, write: bool = False) -> Redis:
        pool = self._get_connection_pool(write)  # type: ignore[attr-defined]
        client = self._clients.get(id(pool))
        if client is None:
            # The second private member the stubs leave out (see above).
            client = self._client(connection_pool=pool)  # type: ignore[attr-defined]
            self._clients[id(pool)] = client
        return client


class RedisCache(django_redis.RedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient


def _fail_open[**P, R](
    what: str, fallback: R, operation: Callable[P, R], *args: P.args, **kwargs: P.kwargs
) -> R:
    """`operation`'s result, or `fallback` (logged as a failed `what`) when Redis fails."""
    try:
        return operation(*args, **kwargs)
    except CACHE_ERRORS as error:
        warn(what, error)
        return fallback


class FailOpenRedisCache(RedisCache):
    def get(self, key: str, default: Any = None, version: int | None = None) -> Any:
        return _fail_open("cache read", default, super().get, key, default, version)

    def set(
        self,
        key: str,
        value: Any,
        timeout: float | None = DEFAULT_TIMEOUT,
        version: int | None = None,
    ) -> None:
        _fail_open("cache write", None, super().set, key, value, timeout, version)

    def delete(self, key: str, version: int | None = None) -> bool:
        return _fail_open("cache delete", False, super().delete, key, version)

    def has_key(self, key: str, version: int | None = None) -> bool:
        return _fail_open("cache lookup", False, super().has_key, key, version)

    def add(
        self,
        key: str,
        value: Any,
        timeout: float | None = DEFAULT_TIMEOUT,
        version: int | None = None,
    ) -> bool:
        # Granted: allauth waits in a loop until its lock is added.
        return _fail_open("cache add", True, super().add, key, value, timeout, version)
