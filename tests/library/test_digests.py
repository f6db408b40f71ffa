"""The email digest: what it says, who gets it, once per period, and one-click unsubscribe."""

import re
from datetime import UTC, datetime, timedelta

import pytest
from allauth.account.models import EmailAddress
from django.core import mail, signing
from django.core.mail.message import EmailMultiAlternatives
from django.core.management import call_command
from django.test import Client
from django.utils import timezone
from pytest_django import Settings

from accounts.models import User
from catalog.changelog import record_source_edit
from catalog.models import ChangeLogEntry
from catalog.models.sources import Source
from library.digests import send_digests, unsubscribe_token
from library.models import DigestLog, DigestSettings, Follow
from tests.hints import SmallCatalog

from ..factories import SourceFactory, UserFactory

pytestmark = pytest.mark.django_db


def verified_follower(
    email: str, topic: str = "attention", frequency: str = "daily", time_zone: str = "UTC"
) -> User:
    user = UserFactory(email=email, time_zone=time_zone)
    EmailAddress.objects.create(user=user, email=email, verified=True, primary=True)
    Follow.objects.create(user=user, kind="topic", target=topic)
    DigestSettings.objects.create(user=user, frequency=frequency)
    return user


@pytest.fixture
def new_attention_source(small_catalog: SmallCatalog) -> Source:
    source = SourceFactory(title="Ring Attention <b>", topics=[small_catalog["topics"][1]])
    record_source_edit(before=None, source=source, via=ChangeLogEntry.Via.ADMIN)
    return source


def test_digest_lists_new_sources_in_html_and_text(
    new_attention_source: Source, settings: Settings
) -> None:
    settings.ACCOUNT_EMAIL_VERIFICATION = "mandatory"
    verified_follower("follower@example.com")
    call_command("send_digests", stdout=None)
    (message,) = mail.outbox
    assert message.to == ["follower@example.com"]
    assert "Ring Attention <b>" in message.body
    assert isinstance(message, EmailMultiAlternatives)
    html = str(message.alternatives[0][0])
    assert "Ring Attention &lt;b&gt;" in html
    assert "/sources/" + new_attention_source.slug in html
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert re.fullmatch(
        r"<https?://[^>]+/library/digest/unsubscribe/[^>]+/>",
        message.extra_headers["List-Unsubscribe"],
    )


def test_a_second_run_in_the_same_period_sends_nothing(new_attention_source: Source) -> None:
    verified_follower("follower@example.com")
    first = send_digests()
    second = send_digests()
    assert first.sent == ["follower@example.com"] and second.sent == []
    assert len(mail.outbox) == 1
    assert DigestLog.objects.count() == 1


def test_the_next_period_sends_only_what_is_new(
    new_attention_source: Source, small_catalog: SmallCatalog
) -> None:
    verified_follower("follower@example.com")
    send_digests()
    # Midday of the next day: past the reader's send hour, whatever time the test runs at.
    tomorrow = (timezone.now() + timedelta(days=1)).replace(hour=12)
    assert send_digests(now=tomorrow).sent == []  # nothing new since the first digest
    later = SourceFactory(title="Tree Attention", topics=[small_catalog["topics"][1]])
    (entry,) = record_source_edit(before=None, source=later, via=ChangeLogEntry.Via.ADMIN)
    entry.created = tomorrow - timedelta(hours=1)
    entry.save()
    assert send_digests(now=tomorrow).sent == ["follower@example.com"]
    assert "Tree Attention" in mail.outbox[-1].body
    assert "Ring Attention" not in mail.outbox[-1].body


def test_unverified_addresses_are_skipped_unless_verification_is_off(
    new_attention_source: Source, settings: Settings
) -> None:
    settings.ACCOUNT_EMAIL_VERIFICATION = "optional"
    user = UserFactory(email="unverified@example.com")
    EmailAddress.objects.create(user=user, email=user.email, verified=False, primary=True)
    Follow.objects.create(user=user, kind="topic", target="attention")
    DigestSettings.objects.create(user=user, frequency="daily")
    report = send_digests()
    assert report.sent == [] and report.skipped_unverified == 1
    settings.ACCOUNT_EMAIL_VERIFICATION = "none"
    assert send_digests().sent == ["unverified@example.com"]


def test_readers_who_turned_it_off_or_follow_nothing_get_nothing(
    new_attention_source: Source,
) -> None:
    verified_follower("off@example.com", frequency="off")
    quiet = verified_follower("quiet@example.com")
    quiet.follows.all().delete()
    assert send_digests().sent == []
    assert mail.outbox == []


def test_only_matching_changes_and_no_mail_when_nothing_matches(
    new_attention_source: Source,
) -> None:
    verified_follower("serving@example.com", topic="serving")
    assert send_digests().sent == []


def test_one_click_unsubscribe_works_logged_out(
    client: Client, new_attention_source: Source
) -> None:
    reader = verified_follower("follower@example.com")
    send_digests()
    url = mail.outbox[0].extra_headers["List-Unsubscribe"].strip("<>")
    path = url[url.index("/library/") :]
    confirm = client.get(path)
    assert confirm.status_code == 200
    assert DigestSettings.objects.get(user=reader).frequency == "daily"  # a GET changes nothing
    response = client.post(path, {"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200
    assert DigestSettings.objects.get(user=reader).frequency == "off"


def test_unsubscribe_links_cannot_be_forged_or_replayed_for_another_reader(
    client: Client, small_catalog: SmallCatalog
) -> None:
    reader = verified_follower("reader@example.com")
    victim = verified_follower("victim@example.com")
    token = unsubscribe_token(reader.pk)
    forged = token.replace(
        token.split(":")[0], signing.dumps(victim.pk, compress=True).split(":")[0]
    )
    other_purpose = signing.dumps(victim.pk)  # signed for something else: another salt
    for bad in (forged, other_purpose, "not-a-token"):
        assert client.post(f"/library/digest/unsubscribe/{bad}/").status_code == 404
    assert DigestSettings.objects.get(user=victim).frequency == "daily"
    client.post(f"/library/digest/unsubscribe/{token}/")
    assert DigestSettings.objects.get(user=victim).frequency == "daily"
    assert DigestSettings.objects.get(user=reader).frequency == "off"


# Sunday 1 March 2026, 12:00 UTC: Monday 01:00 in Auckland (UTC+13), Sunday 04:00 in Los Angeles
# (UTC-8). Changes are dated just before each instant a test sends at.
SUNDAY_NOON_UTC = datetime(2026, 3, 1, 12, tzinfo=UTC)
LA = timedelta(hours=-8)


def changed_at(moment: datetime) -> None:
    ChangeLogEntry.objects.update(created=moment - timedelta(minutes=30))


def test_periods_are_the_readers_own_day_and_week(new_attention_source: Source) -> None:
    changed_at(SUNDAY_NOON_UTC)
    for frequency in ("daily", "weekly"):
        verified_follower(f"nz-{frequency}@example.com", "attention", frequency, "Pacific/Auckland")
        verified_follower(
            f"la-{frequency}@example.com", "attention", frequency, "America/Los_Angeles"
        )
    assert len(send_digests(now=SUNDAY_NOON_UTC).sent) == 4
    periods = dict(DigestLog.objects.values_list("user__email", "period"))
    assert periods == {
        "nz-daily@example.com": "daily:2026-03-02",
        "la-daily@example.com": "daily:2026-03-01",
        "nz-weekly@example.com": "weekly:2026-W10",
        "la-weekly@example.com": "weekly:2026-W09",
    }


def test_a_first_digest_goes_at_once_then_each_in_the_readers_morning(
    new_attention_source: Source, settings: Settings
) -> None:
    settings.DIGEST_SEND_HOUR = 7
    reader = verified_follower("la@example.com", time_zone="America/Los_Angeles")
    sunday_3am_la = SUNDAY_NOON_UTC - timedelta(hours=1)
    changed_at(sunday_3am_la)
    assert send_digests(now=sunday_3am_la).sent == [reader.email]  # never had one: not held back
    monday = SUNDAY_NOON_UTC + timedelta(days=1)  # 04:00 in Los Angeles
    changed_at(monday)
    report = send_digests(now=monday)
    assert report.sent == [] and report.not_yet_due == 1
    assert send_digests(now=monday + timedelta(hours=3)).sent == [reader.email]  # 07:00
    report = send_digests(now=monday + timedelta(hours=4))
    assert report.sent == [] and report.already_sent == 1
    assert len(mail.outbox) == 2


def test_a_weekly_digest_is_due_from_monday_morning_or_later_that_week(
    new_attention_source: Source, settings: Settings
) -> None:
    settings.DIGEST_SEND_HOUR = 7
    reader = verified_follower(
        "la@example.com", frequency="weekly", time_zone="America/Los_Angeles"
    )
    DigestLog.objects.create(
        user=reader, period="weekly:2026-W09", sent_at=SUNDAY_NOON_UTC - timedelta(days=6)
    )
    monday_6am_la = SUNDAY_NOON_UTC + timedelta(days=1, hours=2)
    changed_at(monday_6am_la)
    assert send_digests(now=monday_6am_la).not_yet_due == 1
    wednesday_1am_la = monday_6am_la + timedelta(days=1, hours=19)
    assert send_digests(now=wednesday_1am_la).sent == [reader.email]
    assert DigestLog.objects.filter(user=reader, period="weekly:2026-W10").exists()


@pytest.mark.parametrize("zone", ["Mars/Base", "", "America"])
def test_a_zone_the_system_does_not_know_falls_back_to_the_sites(
    new_attention_source: Source, zone: str
) -> None:
    reader = verified_follower("lost@example.com")
    type(reader).objects.filter(pk=reader.pk).update(time_zone=zone)  # as a stale row would be
    changed_at(SUNDAY_NOON_UTC)
    assert send_digests(now=SUNDAY_NOON_UTC).sent == [reader.email]
    assert DigestLog.objects.get(user=reader).period == "daily:2026-03-01"  # TIME_ZONE is UTC


def test_one_failing_digest_is_reported_and_the_others_still_go(
    monkeypatch: pytest.MonkeyPatch, new_attention_source: Source
) -> None:
    from io import StringIO

    from library import digests

    verified_follower("broken@example.com")
    verified_follower("fine@example.com")
    real_message = digests.digest_message

    def message_or_fail(
        reader: User, entries: list[ChangeLogEntry], frequency: str, more: int = 0
    ) -> EmailMultiAlternatives:
        if reader.email == "broken@example.com":
            raise ValueError("Header values may not contain linefeed or carriage return")
        return real_message(reader, entries, frequency, more)

    monkeypatch.setattr(digests, "digest_message", message_or_fail)
    err = StringIO()
    call_command("send_digests", stdout=StringIO(), stderr=err)
    assert [message.to for message in mail.outbox] == [["fine@example.com"]]
    assert "1 digest(s) could not be sent" in err.getvalue()
    assert "broken@example.com" in err.getvalue()
