"""The daily email telling opted-in maintainers about new relevant candidates."""

from datetime import datetime, timedelta
from typing import Any

from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone

from proposals.alerts import maintainers
from proposals.models import MaintainerAlert
from readinglist.site_address import site_url

from .models import Candidate, CandidateAlert
from .services import RunNotes

FIRST_LOOKBACK = timedelta(days=1)
LISTED = 30


def send_candidate_alerts(*, now: datetime | None = None, notes: RunNotes | None = None) -> int:
    """Email each maintainer who opted in to alerts the relevant candidates found since their
    last candidate email, and what the run could not read (`notes`), at most once a day.
    Returns how many emails went out."""
    now = now or timezone.now()
    problems = notes.lines() if notes else []
    today = timezone.localdate(now)
    opted_in = MaintainerAlert.objects.filter(daily_email=True, user__in=maintainers())
    sent = 0
    for user in (alert.user for alert in opted_in.select_related("user")):
        with transaction.atomic():
            alert, _ = CandidateAlert.objects.select_for_update().get_or_create(user=user)
            if alert.last_sent_on == today:
                continue
            since = alert.last_sent_at or now - FIRST_LOOKBACK
            found = Candidate.objects.inbox(now=now).relevant().filter(found__gt=since)
            count = found.count()
            if count or problems:
                _send(user, list(found.order_by("-relevance", "pk")[:LISTED]), count, problems)
                sent += 1
            alert.last_sent_on, alert.last_sent_at = today, now
            alert.save(update_fields=["last_sent_on", "last_sent_at"])
    return sent


def _send(user: Any, candidates: list[Candidate], count: int, problems: list[str]) -> None:
    context = {
        "candidates": candidates,
        "count": count,
        "problems": problems,
        "more": count - len(candidates),
        "inbox_url": site_url("/admin/candidates/candidate/"),
        "user": user,
    }
    subject = render_to_string("candidates/email/daily_subject.txt", context)
    send_mail(
        " ".join(subject.split()),
        render_to_string("candidates/email/daily.txt", context),
        None,
        [user.email],
    )
