"""Cache calls that fail open: a cache that is down or slow costs the cache, never the page.

Every read and write of the page cache and its versions goes through `guarded`. A backend error
(Redis refused or timed out, the cache table unreachable) is logged at most once a minute per
process, so an outage under load does not flood the log, and the caller gets its fallback.
"""

import logging
import threading
import time
from collections.abc import Callable

from django.db import DatabaseError

logger = logging.getLogger("readinglist.pagecache")

try:
    from redis import RedisError
except ImportError:  # the client library is optional without REDIS_URL
    CACHE_ERRORS: tuple[type[BaseException], ...] = (DatabaseError, OSError)
else:
    CACHE_ERRORS = (DatabaseError, OSError, RedisError)

WARNING_INTERVAL_SECONDS = 60.0
_last_warning = -WARNING_INTERVAL_SECONDS
_warning_lock = threading.Lock()


def warn(what: str, error: BaseException) -> None:
    """Log a cache failure, at most once per WARNING_INTERVAL_SECONDS in this process."""
    global _last_warning
    now = time.monotonic()
    with _warning_lock:
        if now - _last_warning < WARNING_INTERVAL_SECONDS:
            return
        _last_warning = now
    logger.warning(
        "page cache unavailable (%s): %s: %s; serving without it",
        what,
        error.__class__.__name__,
        error,
    )


def guarded[T](what: str, call: Callable[[], T], fallback: T) -> T:
    """`call()`, or `fallback` when the cache backend fails."""
    try:
        return call()
    except CACHE_ERRORS as error:
        warn(what, error)
        return fallback
