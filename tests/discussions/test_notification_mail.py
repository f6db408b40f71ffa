"""Replies and mentions by email: at once (after commit, a burst held to one mail), the daily
digest, never, the one-click unsubscribe, and silence about a team the reader has left."""

import re
from datetime import UTC, datetime, timedelta

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.core.mail import EmailMultiAlternatives
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pytest_django import DjangoCaptureOnCommitCallbacks

from accounts.models import User
from catalog.models import Source
from discussions import emails
from discussions.models import EmailMode, Notification, NotificationSettings, Reply, Thread
from discussions.services import add_reply, start_thread
from teams import services as team_services
from teams.models import Team

from .conftest import login

pytestmark = pytest.mark.django_db

# 08:00 UTC: past DIGEST_SEND_HOUR (07:00) for a reader in UTC.
MORNING = datetime(2026, 3, 10, 8, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _verified(people: dict[str, User]) -> None:
    for user in people.values():
        EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)


@pytest.fixture
def thread(team: Team, people: dict[str, User], flash: Source) -> Thread:
    started, _ = start_thread(author=people["member"], team=team, source=flash, title="Tiles")
    return started


def choose(user: User, mode: EmailMode) -> None:
    NotificationSettings.objects.update_or_create(user=user, defaults={"email_mode": mode})


def reply(
    thread: Thread, author: User, body: str, capture: DjangoCaptureOnCommitCallbacks
) -> Reply:
    with capture(execute=True):
        return add_reply(thread=thread, author=author, body=body)[0]


def test_at_once_mails_after_commit_with_one_click_headers(
    thread: Thread,
    people: dict[str, User],
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    choose(people["member"], EmailMode.AT_ONCE)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        add_reply(thread=thread, author=people["owner"], body="Tiles fit in *SRAM*.\n\n<b>x</b>")
    assert mail.outbox == []  # nothing before the post commits
    for callback in callbacks:
        callback()
    [message] = mail.outbox
    assert isinstance(message, EmailMultiAlternatives)  # a plain text and an HTML part
    assert message.to == ["max@example.com"]
    assert message.subject == "Olive replied in “Tiles”"
    link = reverse("discussions:thread", args=[thread.pk])
    assert link in message.body and "Tiles fit in *SRAM*." in message.body
    html, kind = message.alternatives[0]
    assert isinstance(html, str)
    assert kind == "text/html" and link in html
    assert "Tiles fit in *SRAM*. <b>x</b>" in message.body  # one line of plain text
    assert "&lt;b&gt;x&lt;/b&gt;" in html and "<b>x</b>" not in html
    unsubscribe = message.extra_headers["List-Unsubscribe"]
    assert unsubscribe.startswith("<http") and "/notifications/unsubscribe/" in unsubscribe
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert unsubscribe.strip("<>") in message.body and unsubscribe.strip("<>") in html
    assert Notification.objects.get(recipient=people["member"]).emailed_at is not None


def test_a_burst_sends_one_mail_and_the_rest_together_after_the_interval(
    thread: Thread,
    people: dict[str, User],
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    choose(people["member"], EmailMode.AT_ONCE)
    for n in range(5):
        reply(thread, people["owner"], f"point {n}", django_capture_on_commit_callbacks)
    assert len(mail.outbox) == 1
    assert "point 0" in mail.outbox[0].body
    assert emails.send_due(now=timezone.now()).sent == []  # still within the interval
    later = timezone.now() + emails.AT_ONCE_INTERVAL
    assert emails.send_due(now=later).sent == ["max@example.com"]
    second = mail.outbox[1]
    assert all(f"point {n}" in second.body for n in range(1, 5))
    assert "point 0" not in second.body
    assert emails.send_due(now=later + timedelta(hours=1)).sent == []  # each mailed once


def test_the_daily_digest_carries_unread_notifications_once(
    thread: Thread,
    people: dict[str, User],
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    reply(thread, people["owner"], "first", django_capture_on_commit_callbacks)
    reply(thread, people["former"], "@Max look", django_capture_on_commit_callbacks)
    assert mail.outbox == []  # the default is the daily digest
    before_morning = MORNING.replace(hour=6)
    assert emails.send_due(now=before_morning).sent == []
    # Olive replied first, so the second reply tells her too.
    assert emails.send_due(now=MORNING).sent == ["olive@example.com", "max@example.com"]
    [digest] = [m for m in mail.outbox if m.to == ["max@example.com"]]
    assert "first" in digest.body and "@Max look" in digest.body
    assert "daily digest" in digest.subject
    assert digest.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert emails.send_due(now=MORNING + timedelta(hours=1)).sent == []
    # A notification read on the site before the next morning is not mailed.
    reply(thread, people["owner"], "seen already", django_capture_on_commit_callbacks)
    Notification.objects.filter(recipient=people["member"]).update(read_at=timezone.now())
    assert "max@example.com" not in emails.send_due(now=MORNING + timedelta(days=1)).sent


def test_the_hourly_command_sends_the_due_digests(
    thread: Thread,
    people: dict[str, User],
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
    capsys: pytest.CaptureFixture[str],
) -> None:
    reply(thread, people["owner"], "first", django_capture_on_commit_callbacks)
    call_command("send_notification_mail")
    assert "notification mail(s)" in capsys.readouterr().out


def test_never_sends_nothing(
    thread: Thread,
    people: dict[str, User],
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    choose(people["member"], EmailMode.NEVER)
    reply(thread, people["owner"], "@Max hello", django_capture_on_commit_callbacks)
    assert Notification.objects.filter(recipient=people["member"]).exists()
    assert emails.send_due(now=MORNING + timedelta(days=30)).sent == []
    assert mail.outbox == []


def test_no_mail_about_a_team_the_reader_has_left(
    thread: Thread,
    people: dict[str, User],
    team: Team,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    choose(people["former"], EmailMode.AT_ONCE)
    reply(thread, people["former"], "me too", django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        add_reply(thread=thread, author=people["owner"], body="@fred answer")
    # Told while a member; gone before the mail goes out.
    team_services.leave(team=team, user=people["former"])
    for callback in callbacks:
        callback()
    assert [m.to for m in mail.outbox] == []
    assert "fred@example.com" not in emails.send_due(now=MORNING + timedelta(days=1)).sent
    assert not any("fred@example.com" in m.to for m in mail.outbox)


def test_a_deleted_thread_is_not_mailed(
    thread: Thread,
    people: dict[str, User],
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    reply(thread, people["owner"], "first", django_capture_on_commit_callbacks)
    thread.deleted_at = timezone.now()
    thread.save(update_fields=["deleted_at"])
    assert emails.send_due(now=MORNING).sent == []


def test_unverified_addresses_get_no_mail(
    thread: Thread,
    people: dict[str, User],
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    EmailAddress.objects.filter(user=people["member"]).update(verified=False)
    choose(people["member"], EmailMode.AT_ONCE)
    reply(thread, people["owner"], "hello", django_capture_on_commit_callbacks)
    assert mail.outbox == []


def test_a_mail_that_fails_is_tried_again(
    thread: Thread,
    people: dict[str, User],
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    choose(people["member"], EmailMode.AT_ONCE)

    def refuse(self: EmailMultiAlternatives, fail_silently: bool = False) -> None:
        raise OSError("mail server down")

    with monkeypatch.context() as patched:
        patched.setattr("django.core.mail.EmailMultiAlternatives.send", refuse)
        reply(thread, people["owner"], "hello", django_capture_on_commit_callbacks)
        assert emails.send_due(now=MORNING).failed == ["max@example.com"]
    assert Notification.objects.get(recipient=people["member"]).emailed_at is None
    assert emails.send_due(now=timezone.now()).sent == ["max@example.com"]


# The setting: on the profile page and its own page.


def test_the_profile_page_shows_the_choice_and_saving_comes_back(
    client: Client, people: dict[str, User]
) -> None:
    login(client, people["member"])
    page = client.get(reverse("account_profile")).content.decode()
    assert 'action="/notifications/settings/"' in page
    assert re.search(r'value="daily"[^>]* checked', page)
    response = client.post(
        reverse("discussions:email-settings"),
        {"email_mode": "at_once", "next": reverse("account_profile")},
    )
    assert response.status_code == 302 and response["Location"] == reverse("account_profile")
    assert emails.mode_of(people["member"]) == EmailMode.AT_ONCE
    page = client.get(reverse("account_profile")).content.decode()
    assert re.search(r'value="at_once"[^>]* checked', page)


def test_the_settings_page_refuses_a_bad_choice_and_an_outside_next(
    client: Client, people: dict[str, User]
) -> None:
    login(client, people["member"])
    assert client.get(reverse("discussions:email-settings")).status_code == 200
    bad = client.post(reverse("discussions:email-settings"), {"email_mode": "hourly"})
    assert bad.status_code == 400 and "Select a valid choice" in bad.content.decode()
    response = client.post(
        reverse("discussions:email-settings"),
        {"email_mode": "never", "next": "https://evil.example/"},
    )
    assert response["Location"] == reverse("discussions:email-settings")


def test_a_reader_changes_only_their_own_setting(client: Client, people: dict[str, User]) -> None:
    choose(people["owner"], EmailMode.AT_ONCE)
    login(client, people["member"])
    client.post(
        reverse("discussions:email-settings"),
        {"email_mode": "never", "user": people["owner"].pk, "user_id": people["owner"].pk},
    )
    assert emails.mode_of(people["owner"]) == EmailMode.AT_ONCE
    assert emails.mode_of(people["member"]) == EmailMode.NEVER


def test_visitors_are_sent_to_log_in(client: Client) -> None:
    response = client.get(reverse("discussions:email-settings"))
    assert response.status_code == 302 and "login" in response["Location"]


def test_the_setting_needs_csrf(people: dict[str, User]) -> None:
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    strict.force_login(people["member"])
    response = strict.post(reverse("discussions:email-settings"), {"email_mode": "never"})
    assert response.status_code == 403


# One-click unsubscribe.


def test_unsubscribe_get_asks_and_post_turns_mail_off_without_login(
    people: dict[str, User],
) -> None:
    from django.test import Client

    choose(people["member"], EmailMode.AT_ONCE)
    url = reverse("discussions:unsubscribe", args=[emails.unsubscribe_token(people["member"].pk)])
    # A mail client posts without a session or CSRF token.
    strict = Client(enforce_csrf_checks=True)
    page = strict.get(url)
    assert page.status_code == 200 and f'action="{url}"' in page.content.decode()
    assert emails.mode_of(people["member"]) == EmailMode.AT_ONCE  # GET changes nothing
    done = strict.post(url, {"List-Unsubscribe": "One-Click"})
    assert done.status_code == 200
    assert emails.mode_of(people["member"]) == EmailMode.NEVER


def test_a_tampered_or_foreign_token_is_404(client: Client, people: dict[str, User]) -> None:
    from library.digests import unsubscribe_token as digest_token

    token = emails.unsubscribe_token(people["member"].pk)
    for wrong in (token[:-2] + "xx", digest_token(people["member"].pk), "nonsense"):
        url = reverse("discussions:unsubscribe", args=[wrong])
        assert client.get(url).status_code == 404
        assert client.post(url).status_code == 404
    assert not NotificationSettings.objects.filter(email_mode=EmailMode.NEVER).exists()


def test_a_held_mail_is_deferred_once_to_the_end_of_the_interval(
    thread: Thread,
    people: dict[str, User],
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Where the worker can run a task later, the rest of a burst goes out when the quiet
    interval ends, by one deferred task per reader, not one per reply."""
    from discussions import tasks

    choose(people["member"], EmailMode.AT_ONCE)
    reply(thread, people["owner"], "first", django_capture_on_commit_callbacks)
    deferred: list[datetime] = []

    class Deferring:
        supports_defer = True

    class Stub:
        def get_backend(self) -> Deferring:
            return Deferring()

        def using(self, run_after: datetime) -> "Stub":
            deferred.append(run_after)
            return self

        def enqueue(self, user_ids: list[int]) -> None:
            assert user_ids == [people["member"].pk]

    monkeypatch.setattr(tasks, "mail_at_once", Stub())
    for _ in range(3):
        result = emails.mail_at_once(people["member"])
        assert result.outcome == "held"
        tasks._send_later(people["member"].pk, result)
    last = NotificationSettings.objects.get(user=people["member"]).last_mailed_at
    assert last is not None
    assert deferred == [last + emails.AT_ONCE_INTERVAL]
