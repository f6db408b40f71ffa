"""Notification mail sent off the request path (Django's Tasks framework: the database
backend's worker in production, at once in development and tests)."""

import logging

from django.core.cache import cache
from django.tasks import task

from . import emails

logger = logging.getLogger(__name__)

HELD_KEY = "discussions:mail-held:{}"


@task
def mail_at_once(user_ids: list[int]) -> int:
    """Mail the readers among `user_ids` who chose "at once" what waits for them. Returns how
    many mails went out; one that fails is logged and the hourly run sends it later."""
    sent = 0
    for reader in emails.told_by_mail(user_ids):
        try:
            result = emails.mail_at_once(reader)
        except Exception:
            logger.exception("notification mail to user %s not sent", reader.pk)
            continue
        if result.outcome == "sent":
            sent += 1
        elif result.outcome == "held" and result.until is not None:
            _send_later(reader.pk, result)
    return sent


def _send_later(user_id: int, result: emails.AtOnce) -> None:
    """One deferred task per reader and quiet interval sends what the burst left waiting.
    A backend that cannot defer (the immediate one) leaves it to the hourly run."""
    if not mail_at_once.get_backend().supports_defer or result.until is None:
        return
    seconds = max(1, int(emails.AT_ONCE_INTERVAL.total_seconds()))
    try:
        first = cache.add(HELD_KEY.format(user_id), 1, seconds)
    except Exception as error:  # without the cache, the hourly run still sends it
        logger.warning("notification mail hold not recorded: %s", error)
        return
    if first:
        mail_at_once.using(run_after=result.until).enqueue([user_id])
