"""Replies and mentions by email, as each reader chooses: at once, in a daily digest, or never.

Both kinds of mail carry every notification the reader has not read on the site and that no
mail has told them of yet, each once (`emailed_at`), about teams they are still in: a reader who
left a team hears nothing more of it, even of what was written before they left, and nothing of
a thread since deleted or hidden.

At once: after the transaction that created a notification commits, a task mails its recipient
(tasks.py). A burst of replies does not send a burst of mail: after a mail, the reader's next one
waits AT_ONCE_INTERVAL and then carries everything that came meanwhile. What waits is sent by a
task deferred to the interval's end where the task backend can defer, and otherwise (and after a
failed send) by the hourly `send_notification_mail` run.

Daily digest: the same hourly run mails a reader once per local day, from DIGEST_SEND_HOUR in
their profile's time zone, as the library's digest does.

Each mail has a one-click unsubscribe (RFC 8058 headers and a visible link) whose token is the
reader's id signed under a salt of its own, through the library digest's signing.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Literal

from allauth.account.models import EmailAddress
from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from accounts.validators import one_line
from library import digests
from teams.models import Membership

from .models import EmailMode, Notification, NotificationSettings

if TYPE_CHECKING:
    from collections.abc import Iterable

    from .querysets import NotificationQuerySet

logger = logging.getLogger(__name__)

UNSUBSCRIBE_SALT = "discussions.notification-mail.unsubscribe"
AT_ONCE_INTERVAL = timedelta(minutes=10)
# A mail is read in a minute; the notifications page has the rest.
MAIL_ENTRIES = 20

Outcome = Literal["sent", "held", "nothing", "off"]


def unsubscribe_token(user_id: int) -> str:
    return digests.unsubscribe_token(user_id, salt=UNSUBSCRIBE_SALT)


def user_id_from_token(token: str) -> int | None:
    return digests.user_id_from_token(token, salt=UNSUBSCRIBE_SALT)


def set_mode(user_id: int, mode: str) -> None:
    NotificationSettings.objects.update_or_create(user_id=user_id, defaults={"email_mode": mode})


def mode_of(user: User) -> str:
    row = NotificationSettings.objects.filter(user=user).first()
    return row.email_mode if row else NotificationSettings.DEFAULT_MODE


def unmailed() -> NotificationQuerySet:
    """Unread, never mailed, about live posts in a team the recipient is still in."""
    still_member = Membership.objects.filter(
        user_id=OuterRef("recipient_id"), team_id=OuterRef("thread__team_id")
    )
    return (
        Notification.objects.unread()
        .filter(emailed_at__isnull=True, thread__deleted_at__isnull=True)
        .filter(thread__hidden_by__isnull=True)
        .filter(Q(reply__isnull=True) | Q(reply__deleted_at__isnull=True))
        .filter(Exists(still_member))
    )


def mailable(readers: QuerySet[User]) -> list[User]:
    """The active readers among `readers` whose address may receive mail: proved, unless the
    site asks no one to prove theirs (the library's digest follows the same rule)."""
    readers = readers.filter(is_active=True)
    if settings.ACCOUNT_EMAIL_VERIFICATION != "none":
        proved = EmailAddress.objects.filter(
            user_id=OuterRef("pk"), email__iexact=OuterRef("email"), verified=True
        )
        readers = readers.filter(Exists(proved))
    return list(readers.order_by("pk"))


def _message(
    reader: User, shown: list[Notification], total: int, mode: str
) -> EmailMultiAlternatives:
    base = digests.site_url()
    unsubscribe = base + reverse("discussions:unsubscribe", args=[unsubscribe_token(reader.pk)])
    context = {
        "reader": reader,
        "notifications": shown,
        "total": total,
        "more": total - len(shown),
        "digest": mode == EmailMode.DAILY,
        "site_url": base,
        "site_name": settings.SITE_NAME,
        "notifications_url": base + reverse("discussions:notifications"),
        "settings_url": base + reverse("discussions:email-settings"),
        "unsubscribe_url": unsubscribe,
    }
    subject = one_line(render_to_string("discussions/email/notifications_subject.txt", context))
    message = EmailMultiAlternatives(
        subject,
        render_to_string("discussions/email/notifications.txt", context),
        to=[reader.email],
        headers=digests.one_click_headers(unsubscribe),
    )
    html = render_to_string("discussions/email/notifications.html", context)
    message.attach_alternative(html, "text/html")
    return message


def _send_unmailed(reader: User, row: NotificationSettings, now: datetime) -> Outcome:
    """Mail everything waiting for `reader`; the caller holds the lock on `row`."""
    waiting = unmailed().filter(recipient=reader).order_by("created", "pk")
    ids = list(waiting.values_list("pk", flat=True))
    if not ids:
        return "nothing"
    shown = list(
        Notification.objects.filter(pk__in=ids[:MAIL_ENTRIES])
        .select_related("actor", "thread__team", "thread__source", "reply")
        .order_by("created", "pk")
    )
    Notification.objects.filter(pk__in=ids).update(emailed_at=now)
    row.last_mailed_at = now
    row.save(update_fields=["last_mailed_at"])
    # Inside the transaction: a mail that fails leaves everything unmailed for the next run,
    # and one that went out is recorded before another run can send it again.
    _message(reader, shown, len(ids), row.email_mode).send()
    return "sent"


def _locked_settings(reader: User) -> NotificationSettings:
    NotificationSettings.objects.get_or_create(user=reader)
    return NotificationSettings.objects.select_for_update().get(user=reader)


@dataclass
class AtOnce:
    outcome: Outcome
    # Held: when the reader's next mail may go.
    until: datetime | None = None


def mail_at_once(reader: User, now: datetime | None = None) -> AtOnce:
    """Mail `reader` what waits for them if they chose "at once" and their quiet interval is
    over; otherwise say when it will be."""
    now = now or timezone.now()
    with transaction.atomic():
        row = _locked_settings(reader)
        if row.email_mode != EmailMode.AT_ONCE:
            return AtOnce("off")
        if row.last_mailed_at and now < row.last_mailed_at + AT_ONCE_INTERVAL:
            return AtOnce("held", row.last_mailed_at + AT_ONCE_INTERVAL)
        return AtOnce(_send_unmailed(reader, row, now))


def digest_morning(reader: User, now: datetime) -> datetime:
    """DIGEST_SEND_HOUR of the reader's current local day."""
    zone = digests.reader_zone(reader)
    return digests.local_time(timezone.localdate(now, zone), settings.DIGEST_SEND_HOUR, zone)


def _is_due(row: NotificationSettings, reader: User, now: datetime) -> bool:
    last = row.last_mailed_at
    if row.email_mode == EmailMode.AT_ONCE:
        return last is None or now >= last + AT_ONCE_INTERVAL
    if row.email_mode == EmailMode.DAILY:
        morning = digest_morning(reader, now)
        return now >= morning and (last is None or last < morning)
    return False


@dataclass
class MailReport:
    sent: list[str] = field(default_factory=list)
    not_due: int = 0
    # Addresses whose mail failed (logged with its traceback); the next run tries again.
    failed: list[str] = field(default_factory=list)


def send_due(now: datetime | None = None) -> MailReport:
    """The hourly run: each reader's daily digest when due, and what "at once" readers still
    have waiting (the rest of a burst, a failed send)."""
    now = now or timezone.now()
    report = MailReport()
    waiting = unmailed().values("recipient_id")
    readers = mailable(
        User.objects.filter(pk__in=waiting).exclude(
            notification_settings__email_mode=EmailMode.NEVER
        )
    )
    for reader in readers:
        try:
            with transaction.atomic():
                row = _locked_settings(reader)
                if not _is_due(row, reader, now):
                    report.not_due += 1
                    continue
                if _send_unmailed(reader, row, now) == "sent":
                    report.sent.append(reader.email)
        except Exception:
            # One reader's failing address must not stop everyone else's mail.
            logger.exception("notification mail for user %s not sent", reader.pk)
            report.failed.append(reader.email)
    return report


def told_by_mail(user_ids: Iterable[int]) -> list[User]:
    """The readers among `user_ids` who chose mail at once and may receive it."""
    return mailable(
        User.objects.filter(
            pk__in=list(user_ids), notification_settings__email_mode=EmailMode.AT_ONCE
        )
    )
