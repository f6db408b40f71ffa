"""The email digest of what a reader follows, and its one-click unsubscribe.

`send_digests()` (run daily by `manage.py send_digests`) mails each reader whose digest is due
the catalog changes matching their follows since their previous digest. A DigestLog row per
reader and period is written before the mail goes out, under a unique constraint, so a second
run in the same day (daily) or ISO week (weekly) sends nothing twice, even when two runs race.

The unsubscribe link carries the reader's id signed with SECRET_KEY under a salt used for
nothing else, so it works logged out, cannot be forged, and a link from one reader's digest
cannot be replayed for another (or used as any other signed value of the site).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.sites.models import Site
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from .follows import described, followed_changes
from .models import DigestLog, DigestSettings, Follow

logger = logging.getLogger(__name__)
Frequency = DigestSettings.Frequency
UNSUBSCRIBE_SALT = "library.digest.unsubscribe"
DIGEST_ENTRIES = 50
PERIOD_LENGTH = {Frequency.DAILY: timedelta(days=1), Frequency.WEEKLY: timedelta(days=7)}


def unsubscribe_token(user_id: int) -> str:
    return signing.dumps(user_id, salt=UNSUBSCRIBE_SALT, compress=True)


def user_id_from_token(token: str) -> int | None:
    try:
        value = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    return value if isinstance(value, int) else None


def turn_off(user_id: int) -> None:
    DigestSettings.objects.filter(user_id=user_id).update(frequency=Frequency.OFF)


def period_key(frequency: str, moment: datetime) -> str:
    day = timezone.localdate(moment)
    if frequency == Frequency.DAILY:
        return f"daily:{day.isoformat()}"
    year, week, _ = day.isocalendar()
    return f"weekly:{year}-W{week:02d}"


def site_url() -> str:
    # The site record allauth's emails use, so links point at the configured domain.
    scheme = "http" if settings.DEBUG else "https"
    return f"{scheme}://{Site.objects.get_current().domain}"


@dataclass
class DigestReport:
    sent: list[str] = field(default_factory=list)
    skipped_unverified: int = 0
    nothing_new: int = 0
    already_sent: int = 0


def due_readers():
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


def digest_message(reader, entries, frequency: str) -> EmailMultiAlternatives:
    base = site_url()
    unsubscribe = base + reverse("library:digest-unsubscribe", args=[unsubscribe_token(reader.pk)])
    context = {
        "reader": reader,
        "entries": entries,
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
        headers={
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )
    message.attach_alternative(render_to_string("library/email/digest.html", context), "text/html")
    return message


def send_digest(reader, now: datetime, report: DigestReport) -> None:
    frequency = reader.digest_settings.frequency
    period = period_key(frequency, now)
    if DigestLog.objects.filter(user=reader, period=period).exists():
        report.already_sent += 1
        return
    previous = DigestLog.objects.filter(user=reader).order_by("-sent_at").first()
    since = previous.sent_at if previous else now - PERIOD_LENGTH[frequency]
    entries = followed_changes(reader, since, limit=DIGEST_ENTRIES)
    if not entries:
        report.nothing_new += 1
        return
    try:
        with transaction.atomic():
            DigestLog.objects.create(user=reader, period=period, sent_at=now, entries=len(entries))
            # Inside the transaction: a mail that fails to go out leaves no record, so the
            # next run tries again; one that went out is recorded before anyone else can send.
            digest_message(reader, entries, frequency).send()
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
    return report
