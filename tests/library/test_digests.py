"""The email digest: what it says, who gets it, once per period, and one-click unsubscribe."""

import re

import pytest
from allauth.account.models import EmailAddress
from django.core import mail, signing
from django.core.management import call_command
from django.utils import timezone

from catalog.changelog import record_source_edit
from catalog.models import ChangeLogEntry
from library.digests import send_digests, unsubscribe_token
from library.models import DigestLog, DigestSettings, Follow

from ..factories import SourceFactory, UserFactory

pytestmark = pytest.mark.django_db


def verified_follower(email, topic="attention", frequency="daily"):
    user = UserFactory(email=email)
    EmailAddress.objects.create(user=user, email=email, verified=True, primary=True)
    Follow.objects.create(user=user, kind="topic", target=topic)
    DigestSettings.objects.create(user=user, frequency=frequency)
    return user


@pytest.fixture
def new_attention_source(small_catalog):
    source = SourceFactory(title="Ring Attention <b>", topics=[small_catalog["topics"][1]])
    record_source_edit(before=None, source=source, via=ChangeLogEntry.Via.ADMIN)
    return source


def test_digest_lists_new_sources_in_html_and_text(new_attention_source, settings):
    settings.ACCOUNT_EMAIL_VERIFICATION = "mandatory"
    verified_follower("follower@example.com")
    call_command("send_digests", stdout=None)
    (message,) = mail.outbox
    assert message.to == ["follower@example.com"]
    assert "Ring Attention <b>" in message.body
    html = message.alternatives[0].content
    assert "Ring Attention &lt;b&gt;" in html
    assert "/sources/" + new_attention_source.slug in html
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert re.fullmatch(
        r"<https?://[^>]+/library/digest/unsubscribe/[^>]+/>",
        message.extra_headers["List-Unsubscribe"],
    )


def test_a_second_run_in_the_same_period_sends_nothing(new_attention_source):
    verified_follower("follower@example.com")
    first = send_digests()
    second = send_digests()
    assert first.sent == ["follower@example.com"] and second.sent == []
    assert len(mail.outbox) == 1
    assert DigestLog.objects.count() == 1


def test_the_next_period_sends_only_what_is_new(new_attention_source, small_catalog):
    verified_follower("follower@example.com")
    send_digests()
    tomorrow = timezone.now() + timezone.timedelta(days=1)
    assert send_digests(now=tomorrow).sent == []  # nothing new since the first digest
    later = SourceFactory(title="Tree Attention", topics=[small_catalog["topics"][1]])
    (entry,) = record_source_edit(before=None, source=later, via=ChangeLogEntry.Via.ADMIN)
    entry.created = tomorrow - timezone.timedelta(hours=1)
    entry.save()
    assert send_digests(now=tomorrow).sent == ["follower@example.com"]
    assert "Tree Attention" in mail.outbox[-1].body
    assert "Ring Attention" not in mail.outbox[-1].body


def test_unverified_addresses_are_skipped_unless_verification_is_off(
    new_attention_source, settings
):
    settings.ACCOUNT_EMAIL_VERIFICATION = "optional"
    user = UserFactory(email="unverified@example.com")
    EmailAddress.objects.create(user=user, email=user.email, verified=False, primary=True)
    Follow.objects.create(user=user, kind="topic", target="attention")
    DigestSettings.objects.create(user=user, frequency="daily")
    report = send_digests()
    assert report.sent == [] and report.skipped_unverified == 1
    settings.ACCOUNT_EMAIL_VERIFICATION = "none"
    assert send_digests().sent == ["unverified@example.com"]


def test_readers_who_turned_it_off_or_follow_nothing_get_nothing(new_attention_source):
    verified_follower("off@example.com", frequency="off")
    quiet = verified_follower("quiet@example.com")
    quiet.follows.all().delete()
    assert send_digests().sent == []
    assert mail.outbox == []


def test_only_matching_changes_and_no_mail_when_nothing_matches(new_attention_source):
    verified_follower("serving@example.com", topic="serving")
    assert send_digests().sent == []


def test_one_click_unsubscribe_works_logged_out(client, new_attention_source):
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


def test_unsubscribe_links_cannot_be_forged_or_replayed_for_another_reader(client, small_catalog):
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
