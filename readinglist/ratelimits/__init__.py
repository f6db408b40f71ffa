"""Per-reader rate limits for actions that cost the site (outbound fetches, imports).

Uses are counted in the database, like the notes and invitation limits: every app process sees
the same count, and no cache can evict a count to let a reader start over. Each reader has one
row per action, a window and its count; one conditional UPDATE both checks and counts, so the
limit holds exactly under concurrent requests: two queries a use whatever the reader's history
(a third, on a refusal, finds when to try again).

    refusal = consume(user_id=request.user.pk, action="proposals.fill", limit=30)
    if refusal:
        ...  # refusal.explain("… {limit} time{s} … Try again in {wait}."), with status 429
"""

import math
from dataclasses import dataclass
from datetime import timedelta

from django.db.models import Case, F, Q, Value, When
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
    return a Refusal when `limit` uses were already counted in the reader's current window of
    length `per` (which starts at the first use after the previous one ended)."""
    from .models import Window

    now = timezone.now()
    ended = Q(started__lte=now - per)
    mine = Window.objects.filter(user_id=user_id, action=action)
    # The reader's row, made once; a concurrent first use finds it there and adds nothing.
    Window.objects.bulk_create(
        [Window(user_id=user_id, action=action, started=now, uses=0)], ignore_conflicts=True
    )
    # One statement checks and counts, so concurrent requests cannot both take the last use:
    # the database applies them one after the other, each seeing the other's count.
    counted = mine.filter(ended | Q(uses__lt=limit)).update(
        started=Case(When(ended, then=Value(now)), default=F("started")),
        uses=Case(When(ended, then=Value(1)), default=F("uses") + 1),
    )
    if counted:
        return None
    started = mine.values_list("started", flat=True).first() or now
    retry_after = max(math.ceil((started + per - now).total_seconds()), 1)
    return Refusal(limit=limit, retry_after=retry_after)


__all__ = ["HOUR", "Refusal", "consume"]
