"""Mentions and notifications: who is told, the header's count and its cache, the page."""

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from pytest_django import DjangoCaptureOnCommitCallbacks

from accounts.models import User
from catalog.models import Source
from discussions import counts
from discussions.mentions import MAX_MENTIONS, names_in
from discussions.models import Notification, Thread
from discussions.services import add_reply, start_thread
from teams import services as team_services
from teams.models import Team

from .conftest import login

pytestmark = pytest.mark.django_db


@pytest.fixture
def thread(team: Team, people: dict[str, User], flash: Source) -> Thread:
    started, _ = start_thread(author=people["member"], team=team, source=flash, title="Tiles")
    return started


def test_names_are_found_but_email_addresses_are_not() -> None:
    assert names_in("Hi @Max and @olive, mail fred@example.com. @max again") == ["max", "olive"]


def test_a_mention_tells_members_only(
    client: Client,
    thread: Thread,
    people: dict[str, User],
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    login(client, people["owner"])
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("discussions:reply", args=[thread.pk]),
            {"body": "@Max see this; @fred too; @nina is not in the team; @ben neither"},
            follow=True,
        )
    told = {(n.recipient.email, n.kind) for n in Notification.objects.all()}
    # The thread's author is mentioned: a mention wins over the reply notice.
    assert told == {("max@example.com", "mention"), ("fred@example.com", "mention")}
    assert "Nobody in the team goes by @nina, @ben" in response.content.decode()


def test_replies_tell_the_author_and_earlier_repliers_still_in_the_team(
    thread: Thread, people: dict[str, User], team: Team
) -> None:
    add_reply(thread=thread, author=people["former"], body="me too")
    team_services.leave(team=team, user=people["former"])
    add_reply(thread=thread, author=people["owner"], body="answer")
    recipients = {n.recipient_id for n in Notification.objects.filter(actor=people["owner"])}
    assert recipients == {people["member"].pk}


def test_too_many_mentions_is_refused_and_the_text_kept(
    client: Client, thread: Thread, people: dict[str, User]
) -> None:
    body = " ".join(f"@name{n}" for n in range(500))
    login(client, people["owner"])
    response = client.post(reverse("discussions:reply", args=[thread.pk]), {"body": body})
    html = response.content.decode()
    assert response.status_code == 400
    assert f"This mentions 500 different names; a post may mention at most {MAX_MENTIONS}" in html
    assert "@name499" in html
    assert not Notification.objects.exists()


def test_the_header_shows_the_count_and_the_page_marks_read(
    client: Client,
    thread: Thread,
    people: dict[str, User],
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        add_reply(thread=thread, author=people["owner"], body="one")
        add_reply(thread=thread, author=people["owner"], body="two @max")
    login(client, people["member"])
    home = client.get(reverse("pages:home")).content.decode()
    assert 'href="/notifications/">Notifications <span class="badge">2</span>' in home

    with django_capture_on_commit_callbacks(execute=True):
        page = client.get(reverse("discussions:notifications")).content.decode()
    assert page.count("<strong>New:</strong>") == 2 and "mentioned you" in page
    home = client.get(reverse("pages:home")).content.decode()
    assert 'href="/notifications/">Notifications</a>' in home
    assert "<strong>New:</strong>" not in client.get("/notifications/").content.decode()


def test_the_count_costs_one_cache_read_and_no_query_when_kept(
    thread: Thread, people: dict[str, User]
) -> None:
    add_reply(thread=thread, author=people["owner"], body="one")
    user_id = people["member"].pk
    assert counts.unread_count(user_id) == 1
    with CaptureQueriesContext(connection) as queries:
        assert counts.unread_count(user_id) == 1
    # The test cache is a database table: one read of it, none of the notifications.
    assert len(queries) == 1 and "discussions_notification" not in queries[0]["sql"]


def test_the_count_fails_open_when_the_cache_is_down(
    thread: Thread, people: dict[str, User], monkeypatch: pytest.MonkeyPatch
) -> None:
    add_reply(thread=thread, author=people["owner"], body="one")

    def broken(*args: object, **kwargs: object) -> None:
        raise ConnectionError("cache down")

    monkeypatch.setattr(cache, "get", broken)
    monkeypatch.setattr(cache, "set", broken)
    assert counts.unread_count(people["member"].pk) == 1


def test_leaving_a_team_silences_its_notifications_at_once(
    client: Client,
    thread: Thread,
    people: dict[str, User],
    team: Team,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        add_reply(thread=thread, author=people["owner"], body="@fred look")
    assert counts.unread_count(people["former"].pk) == 1
    with django_capture_on_commit_callbacks(execute=True):
        team_services.remove_member(team=team, by=people["owner"], user=people["former"])
    login(client, people["former"])
    assert counts.unread_count(people["former"].pk) == 0
    page = client.get(reverse("discussions:notifications")).content.decode()
    assert "Tiles" not in page and "Nothing yet" in page


def test_the_count_stops_at_99_plus(
    client: Client, thread: Thread, people: dict[str, User]
) -> None:
    from discussions.models import Notification

    Notification.objects.bulk_create(
        Notification(recipient=people["member"], thread=thread, actor=people["owner"], kind="reply")
        for _ in range(150)
    )
    login(client, people["member"])
    assert counts.unread_count(people["member"].pk) == 100
    html = client.get(reverse("pages:home")).content.decode()
    assert 'Notifications <span class="badge">99+</span>' in html
