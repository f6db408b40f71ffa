"""The Redis cache backend keeps one client per connection pool instead of one per call."""

import pytest

from readinglist.cache import RedisCache

redis = pytest.importorskip("redis")


def test_each_call_reuses_the_pools_client() -> None:
    cache = RedisCache("redis://127.0.0.1:6379/1", {})
    client = cache._cache.get_client("key")
    assert cache._cache.get_client("other") is client
    assert cache._cache.get_client("key", write=True) is client  # one server: one pool
    # The pool of the client's one server, as Django keeps it (private, so not in the stubs).
    assert client.connection_pool is cache._cache._get_connection_pool(False)  # type: ignore[attr-defined]


def test_it_still_talks_to_redis() -> None:
    cache = RedisCache("redis://127.0.0.1:6379/1", {})
    try:
        cache._cache.get_client().ping()
    except redis.ConnectionError:
        pytest.skip("no Redis on 127.0.0.1:6379")
    cache.set("readinglist-test-key", {"a": 1}, 5)
    assert cache.get("readinglist-test-key") == {"a": 1}
    cache.delete("readinglist-test-key")
