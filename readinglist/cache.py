"""Django's Redis cache backend, keeping one client per connection pool.

Django's client builds a new `redis.Redis` for every cache call. Building one sets up its
response callbacks afresh (a few hundred dict writes), which costs more than the round trip to a
local Redis itself, and the anonymous page cache and cached sessions read the cache on every
request. A `redis.Redis` over a connection pool is safe to share between threads (each command
borrows a connection), so one per pool is kept. Configure with BACKEND =
"readinglist.cache.RedisCache"; everything else is Django's.

FailOpenRedisCache is for what has a copy elsewhere (sessions, kept in the database too): a
Redis that is down or slow reads as a miss and drops writes, logged at most once a minute.
Django's cached_db sessions fall back to the database on a failed read but not on the refill
after it, nor on a lookup or delete. While Redis is unreachable but keeps its data (a network
partition rather than a restart), a session deleted then (a logout) lives on in Redis until it
expires.
"""

from django.core.cache.backends import redis as django_redis

from .pagecache.failsafe import CACHE_ERRORS, warn


class RedisCacheClient(django_redis.RedisCacheClient):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients = {}

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client


class RedisCache(django_redis.RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = RedisCacheClient


class FailOpenRedisCache(RedisCache):
    def get(self, key, default=None, version=None):
        try:
            return super().get(key, default, version)
        except CACHE_ERRORS as error:
            warn("session read", error)
            return default

    def set(self, key, value, timeout=django_redis.DEFAULT_TIMEOUT, version=None):
        try:
            super().set(key, value, timeout, version)
        except CACHE_ERRORS as error:
            warn("session write", error)

    def delete(self, key, version=None):
        try:
            return super().delete(key, version)
        except CACHE_ERRORS as error:
            warn("session delete", error)
            return False

    def has_key(self, key, version=None):
        try:
            return super().has_key(key, version)
        except CACHE_ERRORS as error:
            warn("session lookup", error)
            return False
