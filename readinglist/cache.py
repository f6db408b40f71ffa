"""Django's Redis cache backend, keeping one client per connection pool.

Django's client builds a new `redis.Redis` for every cache call. Building one sets up its
response callbacks afresh (a few hundred dict writes), which costs more than the round trip to a
local Redis itself, and the anonymous page cache and cached sessions read the cache on every
request. A `redis.Redis` over a connection pool is safe to share between threads (each command
borrows a connection), so one per pool is kept. Configure with BACKEND =
"readinglist.cache.RedisCache"; everything else is Django's.
"""

from django.core.cache.backends import redis as django_redis


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
