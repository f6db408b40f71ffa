"""The daily email that tells maintainers who opted in about new proposals."""

from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import Q, QuerySet
from django.template.loader import render_to_string
from django.utils import timezone

from accounts.models import User
from readinglist import site_address

from .duplicates import find_duplicates
from .models import MaintainerAlert, Proposal

FIRST_DIGEST_LOOKBACK = timedelta(days=1)


def maintainers() -> QuerySet[User]:
    """Active staff who may decide proposals, directly or through a group."""
    permission = Permission.objects.filter(
        codename="add_decision", content_type__app_label="proposals"
    ).first()
    users = get_user_model().objects.filter(is_active=True, is_staff=True)
    if permission is None:
        return users.filter(is_superuser=True)
    return users.filter(
        Q(is_superuser=True) | Q(user_permissions=permission) | Q(groups__permissions=permission)
    ).distinct()


def _site_url() -> str:
    return site_address.site_url()


def send_daily_alerts(*, now: datetime | None = None) -> int:
    """Email each opted-in maintainer the proposals submitted since their last email.

    Returns how many emails went out. A maintainer already emailed today gets nothing more, so
    running it twice on a day (a retried cron job) sends each email once.
    """
    now = now or timezone.now()
    today = timezone.localdate(now)
    sent = 0
    alerts = MaintainerAlert.objects.filter(daily_email=True, user__in=maintainers())
    for alert in alerts.select_related("user").exclude(last_sent_on=today):
        since = alert.last_sent_at or now - FIRST_DIGEST_LOOKBACK
        proposals = list(
            Proposal.objects.pending()
            .filter(submitted_at__gt=since, submitted_at__lte=now)
            .select_related("tier")
            .order_by("submitted_at", "pk")
        )
        with transaction.atomic():
            locked = MaintainerAlert.objects.select_for_update().get(pk=alert.pk)
            if locked.last_sent_on == today:
                continue
            if proposals:
                _send(alert.user, proposals)
                sent += 1
            locked.last_sent_on, locked.last_sent_at = today, now
            locked.save(update_fields=["last_sent_on", "last_sent_at"])
    return sent


def _send(user: User, proposals: list[Proposal]) -> None:
    items = [(p, find_duplicates(url=p.url, title=p.title, exclude_proposal=p)) for p in proposals]
    context = {"items": items, "count": len(items), "site_url": _site_url(), "user": user}
    send_mail(
        render_to_string("proposals/email/daily_subject.txt", context).strip(),
        render_to_string("proposals/email/daily.txt", context),
        None,
        [user.email],
    )
