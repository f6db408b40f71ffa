"""The unread count in the site header: one cache read per page.

The count is kept per reader under a key holding the reader's notification version; a new
notification, a read one or a change of teams bumps the version (forget()), so the next page
counts again in the database and keeps the result. A cache that fails reads as a miss: the page
counts in the database and shows the right number.
"""

import logging

from django.core.cache import cache

logger = logging.getLogger(__name__)

COUNT_KEY = "discussions:unread:{}"
# An upper bound on how long a count can be wrong if a forget() was lost with the cache.
COUNT_TTL = 300
# The header says "99+" past this: reading at most this many ids costs the same for a reader
# with 100 unread notifications and one with 100,000, where COUNT(*) would read them all.
SHOWN_MAX = 99


def _get(key: str) -> int | None:
    try:
        value = cache.get(key)
    except Exception as error:  # a cache outage must not break every page's header
        logger.warning("unread count cache read failed: %s", error)
        return None
    return value if isinstance(value, int) else None


def unread_count(user_id: int) -> int:
    """The reader's unread notifications, up to SHOWN_MAX + 1."""
    from .models import Notification

    key = COUNT_KEY.format(user_id)
    count = _get(key)
    if count is None:
        unread = Notification.objects.for_reader_id(user_id).unread().order_by()
        count = len(unread.values_list("pk", flat=True)[: SHOWN_MAX + 1])
        try:
            cache.set(key, count, COUNT_TTL)
        except Exception as error:
            logger.warning("unread count cache write failed: %s", error)
    return count


def forget(*user_ids: int) -> None:
    """Drop the kept counts of these readers (after their notifications changed)."""
    try:
        cache.delete_many([COUNT_KEY.format(pk) for pk in user_ids])
    except Exception as error:
        logger.warning("unread count cache delete failed: %s", error)
