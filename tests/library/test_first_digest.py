"""The first digest covers what changed since the reader started following, capped with
"and N more" and a link; saved searches are described with their filters."""

from datetime import datetime, timedelta

import pytest
from django.core.mail import EmailMultiAlternatives
from django.utils import timezone

from catalog.changelog import record_source_edit
from catalog.models import ChangeLogEntry, Topic
from catalog.models.sources import Source
from library.digests import DIGEST_ENTRIES, send_digests
from library.follows import search_description
from library.models import Follow
from tests.factories import SourceFactory
from tests.hints import SmallCatalog
from tests.library.test_digests import verified_follower

pytestmark = pytest.mark.django_db


def changed_source(topic: Topic, title: str, when: datetime) -> Source:
    source = SourceFactory(title=title, topics=[topic])
    for entry in record_source_edit(before=None, source=source, via=ChangeLogEntry.Via.ADMIN):
        ChangeLogEntry.objects.filter(pk=entry.pk).update(created=when)
    return source


def test_the_first_digest_reaches_back_to_the_follow(small_catalog: SmallCatalog) -> None:
    from django.core import mail

    topic = small_catalog["topics"][1]
    reader = verified_follower("follower@example.com", frequency="daily")
    Follow.objects.filter(user=reader).update(created=timezone.now() - timedelta(days=10))
    changed_source(topic, "Since the follow", timezone.now() - timedelta(days=5))
    changed_source(topic, "Before the follow", timezone.now() - timedelta(days=20))
    assert send_digests().sent == ["follower@example.com"]
    body = mail.outbox[0].body
    assert "Since the follow" in body
    assert "Before the follow" not in body


def test_a_long_first_digest_is_capped_with_and_n_more(small_catalog: SmallCatalog) -> None:
    from django.core import mail

    topic = small_catalog["topics"][1]
    verified_follower("follower@example.com")
    for n in range(DIGEST_ENTRIES + 7):
        changed_source(topic, f"Paper {n:03}", timezone.now() - timedelta(minutes=n + 1))
    send_digests()
    (message,) = mail.outbox
    assert "Paper 000" in message.body
    assert f"Paper {DIGEST_ENTRIES:03}" not in message.body
    assert "- and 7 more: https://" in message.body
    assert "/changes/" in message.body
    assert isinstance(message, EmailMultiAlternatives)
    assert ">and 7 more</a>" in str(message.alternatives[0][0])


@pytest.mark.parametrize(
    ("target", "described"),
    [
        ("q=attention", "attention"),
        ("q=attention&topic=kernels&year=2023", "attention (topic: kernels, year: 2023)"),
        ("tier=frontier&kind=paper&sort=new", "tier: frontier, kind: paper"),
        ("", "everything"),
    ],
)
def test_saved_searches_are_described_with_their_filters(target: str, described: str) -> None:
    assert search_description(target) == described
