"""The email digest of what a reader follows, and its one-click unsubscribe.

`send_digests()` (run hourly by `manage.py send_digests`) mails each reader whose digest is due
the catalog changes matching their follows since their previous digest. Periods are the
reader's own: their local day (daily) or ISO week (weekly) in their profile's time zone, and a
digest is due from DIGEST_SEND_HOUR of the period's first local day, so it arrives in their
morning. A reader who has never had a digest gets the first one at once. A DigestLog row per
reader and period is written before the mail goes out, under a unique constraint, so a second
run in the same period sends nothing twice, even when two runs race.

The unsubscribe link carries the reader's id signed with SECRET_KEY under a salt used for
nothing else, so it works logged out, cannot be forged, and a link from one reader's digest
cannot be replayed for another (or used as any other signed value of the site).
"""

from __future__ import annotations

import logging
import zoneinfo
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta, tzinfo
from typing import TYPE_CHECKING

from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.db import IntegrityError, transaction
from django.db.models import Min
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from readinglist import site_address

from .follows import described, followed_changes_capped
from .models import DigestLog, DigestSettings, Follow

if TYPE_CHECKING:
    from accounts.models import User
    from catalog.models import ChangeLogEntry

logger = logging.getLogger(__name__)
Frequency = DigestSettings.Frequency
UNSUBSCRIBE_SALT = "library.digest.unsubscribe"
# A digest is read in a minute; the rest is one link away.
DIGEST_ENTRIES = 20
PERIOD_LENGTH: dict[str, timedelta] = {
    Frequency.DAILY: timedelta(days=1),
    Frequency.WEEKLY: timedelta(days=7),
}


def unsubscribe_token(user_id: int, salt: str = UNSUBSCRIBE_SALT) -> str:
    """A reader's one-click unsubscribe token. Another mail's unsubscribe passes a salt of its
    own, so a link from one kind of mail never turns off another."""
    return signing.dumps(user_id, salt=salt, compress=True)


def user_id_from_token(token: str, salt: str = UNSUBSCRIBE_SALT) -> int | None:
    try:
        value = signing.loads(token, salt=salt)
    except signing.BadSignature:
        return None
    return value if isinstance(value, int) else None


def turn_off(user_id: int) -> None:
    DigestSettings.objects.filter(user_id=user_id).update(frequency=Frequency.OFF)


def reader_zone(reader: User) -> tzinfo:
    """The reader's own time zone; a name this system does not know falls back to the site's."""
    try:
        return zoneinfo.ZoneInfo(reader.time_zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):
        # A zone renamed away in a tzdata update, or a row written around the form's check,
        # must not cost the reader their digest (nor stop everyone else's).
        return zoneinfo.ZoneInfo(settings.TIME_ZONE)


def period_key(frequency: str, moment: datetime, zone: tzinfo | None = None) -> str:
    day = timezone.localdate(moment, zone)
    if frequency == Frequency.DAILY:
        return f"daily:{day.isoformat()}"
    year, week, _ = day.isocalendar()
    return f"weekly:{year}-W{week:02d}"


def period_first_day(frequency: str, moment: datetime, zone: tzinfo) -> date:
    day = timezone.localdate(moment, zone)
    return day if frequency == Frequency.DAILY else day - timedelta(days=day.weekday())


def local_time(day: date, hour: int, zone: tzinfo) -> datetime:
    return datetime.combine(day, time(hour), tzinfo=zone)


def site_url() -> str:
    return site_address.site_url()


@dataclass
class DigestReport:
    sent: list[str] = field(default_factory=list)
    skipped_unverified: int = 0
    nothing_new: int = 0
    already_sent: int = 0
    not_yet_due: int = 0
    # Addresses whose digest failed (logged with its traceback); the next run tries again.
    failed: list[str] = field(default_factory=list)


def due_readers() -> tuple[list[User], int]:
    """Readers with the digest on who follow something and whose address may receive mail."""
    readers = (
        get_user_model()
        .objects.filter(is_active=True, digest_settings__isnull=False)
        .exclude(digest_settings__frequency=Frequency.OFF)
        .filter(pk__in=Follow.objects.values("user_id"))
        .select_related("digest_settings")
        .order_by("pk")
    )
    if settings.ACCOUNT_EMAIL_VERIFICATION == "none":
        return list(readers), 0
    verified = EmailAddress.objects.filter(verified=True).values_list("user_id", "email")
    verified_pairs = {(user_id, email.lower()) for user_id, email in verified}
    allowed = [r for r in readers if (r.pk, r.email.lower()) in verified_pairs]
    return allowed, len(readers) - len(allowed)


def one_click_headers(unsubscribe_url: str) -> dict[str, str]:
    """RFC 8058: mail clients show an unsubscribe button that POSTs to the link, no page seen."""
    return {
        "List-Unsubscribe": f"<{unsubscribe_url}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    }


def digest_message(
    reader: User, entries: list[ChangeLogEntry], frequency: str, more: int = 0
) -> EmailMultiAlternatives:
    base = site_url()
    unsubscribe = base + reverse("library:digest-unsubscribe", args=[unsubscribe_token(reader.pk)])
    context = {
        "reader": reader,
        "entries": entries,
        "more": more,
        "more_url": base + reverse("catalog:changes"),
        "follows": described(list(reader.follows.all())),
        "frequency": frequency,
        "site_url": base,
        "unsubscribe_url": unsubscribe,
        "settings_url": base + reverse("library:follows"),
    }
    subject = render_to_string("library/email/digest_subject.txt", context).strip()
    message = EmailMultiAlternatives(
        subject,
        render_to_string("library/email/digest.txt", context),
        to=[reader.email],
        headers=one_click_headers(unsubscribe),
    )
    message.attach_alternative(render_to_string("library/email/digest.html", context), "text/html")
    return message


def first_digest_since(reader: User, one_period_ago: datetime) -> datetime:
    """Where a reader's first digest starts: when they started following, so nothing since
    then is missed; a follow started within the last period still gets that period's changes,
    so the first digest is never empty for being early."""
    started = reader.follows.aggregate(first=Min("created"))["first"]
    return min(started, one_period_ago) if started else one_period_ago


def send_digest(reader: User, now: datetime, report: DigestReport) -> None:
    frequency = reader.digest_settings.frequency
    zone = reader_zone(reader)
    period = period_key(frequency, now, zone)
    first_day = period_first_day(frequency, now, zone)
    previous = DigestLog.objects.filter(user=reader).order_by("-sent_at").first()
    if previous is not None:
        # Also by time, not only by key: a reader who moves west (or keys written in another
        # zone) would otherwise get a second digest within the same local day or week.
        if previous.period == period or previous.sent_at >= local_time(first_day, 0, zone):
            report.already_sent += 1
            return
        # The first digest goes out at once; from then on, in the reader's morning.
        if now < local_time(first_day, settings.DIGEST_SEND_HOUR, zone):
            report.not_yet_due += 1
            return
    since = (
        previous.sent_at if previous else first_digest_since(reader, now - PERIOD_LENGTH[frequency])
    )
    entries, more = followed_changes_capped(reader, since, limit=DIGEST_ENTRIES)
    if not entries:
        report.nothing_new += 1
        return
    try:
        with transaction.atomic():
            DigestLog.objects.create(user=reader, period=period, sent_at=now, entries=len(entries))
            # Inside the transaction: a mail that fails to go out leaves no record, so the
            # next run tries again; one that went out is recorded before anyone else can send.
            digest_message(reader, entries, frequency, more).send()
    except IntegrityError:  # another run recorded this period first
        report.already_sent += 1
        return
    report.sent.append(reader.email)


def send_digests(now: datetime | None = None) -> DigestReport:
    now = now or timezone.now()
    report = DigestReport()
    readers, report.skipped_unverified = due_readers()
    for reader in readers:
        try:
            send_digest(reader, now, report)
        except Exception:
            # One reader's failing address must not stop everyone else's digest.
            logger.exception("digest for user %s not sent", reader.pk)
            report.failed.append(reader.email)
    return report
