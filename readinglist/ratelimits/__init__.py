"""Per-reader rate limits for actions that cost the site (outbound fetches, imports).

Uses are counted in the database, like the notes and invitation limits: every app process sees
the same count, and no cache can evict a count to let a reader start over. A reader's concurrent
requests queue behind a row lock on their account, so the limit is exact.

    refusal = consume(user_id=request.user.pk, action="proposals.fill", limit=30)
    if refusal:
        ...  # refusal.explain("… {limit} time{s} … Try again in {wait}."), with status 429
"""

import math
from dataclasses import dataclass
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

HOUR = timedelta(hours=1)


@dataclass(frozen=True)
class Refusal:
    """A use refused because the limit was reached; `retry_after` is in seconds."""

    limit: int
    retry_after: int

    @property
    def wait(self) -> str:
        minutes = math.ceil(self.retry_after / 60)
        return "a minute" if minutes <= 1 else f"{minutes} minutes"

    def explain(self, template: str) -> str:
        """The page's own words, with {limit}, {s} (the plural's "s") and {wait} filled in."""
        return template.format(limit=self.limit, s="" if self.limit == 1 else "s", wait=self.wait)


def consume(*, user_id: int, action: str, limit: int, per: timedelta = HOUR) -> Refusal | None:
    """Count one use of `action` by the reader `user_id` and return None, or count nothing and
    return a Refusal when `limit` uses were already counted within the last `per`."""
    from .models import Use

    now = timezone.now()
    with transaction.atomic():
        # One reader's concurrent requests queue here, so each counts what the others counted.
        list(get_user_model().objects.select_for_update().filter(pk=user_id).values_list("pk"))
        mine = Use.objects.filter(user_id=user_id, action=action)
        mine.filter(at__lte=now - per).delete()
        recent = list(mine.order_by("at").values_list("at", flat=True)[: max(limit, 0)])
        if len(recent) >= limit:
            oldest = recent[0] if recent else now
            retry_after = max(math.ceil((oldest + per - now).total_seconds()), 1)
            return Refusal(limit=limit, retry_after=retry_after)
        Use.objects.create(user_id=user_id, action=action, at=now)
    return None


__all__ = ["HOUR", "Refusal", "consume"]
