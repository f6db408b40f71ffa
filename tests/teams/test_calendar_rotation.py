"""The calendar's secret address changes when someone leaves; only owners change it by hand;
the members who stay are mailed the new address, and whoever left is not."""

import pytest
from django.core import mail
from django.test import Client
from pytest_django import DjangoCaptureOnCommitCallbacks

from accounts.models import User
from teams.models import Team

ROTATE = "/teams/inference/calendar/rotate/"


def feed(team: Team) -> str:
    return f"/teams/{team.slug}/calendar/{team.calendar_token}.ics"


@pytest.fixture
def old_feed(team: Team, member: User) -> str:
    return feed(team)


def mailed_addresses() -> list[str]:
    return sorted(message.to[0] for message in mail.outbox)


def test_members_neither_see_nor_use_the_rotate_button(
    client: Client, team: Team, member: User, old_feed: str
) -> None:
    client.force_login(member)
    page = client.get("/teams/inference/")
    assert "Give the calendar a new secret address" not in page.text
    assert client.post(ROTATE).status_code == 404
    team.refresh_from_db()
    assert feed(team) == old_feed
    assert client.get(old_feed).status_code == 200


def test_owner_rotates_and_every_member_gets_the_new_address(
    client: Client,
    team: Team,
    owner: User,
    member: User,
    old_feed: str,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    client.force_login(owner)
    assert "Give the calendar a new secret address" in client.get("/teams/inference/").text
    with django_capture_on_commit_callbacks(execute=True):
        client.post(ROTATE)
    team.refresh_from_db()
    assert client.get(old_feed).status_code == 404
    assert mailed_addresses() == ["member@example.com", "owner@example.com"]
    assert all(feed(team) in message.body for message in mail.outbox)
    assert all(f"webcal://readinglist.test{feed(team)}" in message.body for message in mail.outbox)
    assert mail.outbox[0].subject == "Inference: the team calendar has a new address"


def test_removing_a_member_retires_the_address_they_had(
    client: Client,
    team: Team,
    owner: User,
    member: User,
    old_feed: str,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    client.force_login(owner)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/teams/inference/members/{member.pk}/remove/")
    team.refresh_from_db()
    assert client.get(old_feed).status_code == 404
    assert client.get(feed(team)).status_code == 200
    # The removed member is told they were removed, and is not sent the new address.
    assert mailed_addresses() == ["member@example.com", "owner@example.com"]
    (calendar,) = [message for message in mail.outbox if message.to == ["owner@example.com"]]
    assert feed(team) in calendar.body
    assert "because someone left the team" in calendar.body
    assert all(feed(team) not in message.body for message in mail.outbox if message != calendar)


def test_leaving_retires_the_address_too(
    client: Client,
    team: Team,
    owner: User,
    member: User,
    old_feed: str,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    client.force_login(member)
    with django_capture_on_commit_callbacks(execute=True):
        client.post("/teams/inference/leave/")
    team.refresh_from_db()
    assert client.get(old_feed).status_code == 404
    assert mailed_addresses() == ["owner@example.com"]


def test_one_failing_address_does_not_stop_the_others(
    monkeypatch: pytest.MonkeyPatch, team: Team, owner: User, member: User
) -> None:
    from teams import emails, tasks

    real_send = emails.send_mail

    def send_or_fail(subject: str, body: str, sender: str | None, recipients: list[str]) -> int:
        if recipients == ["owner@example.com"]:
            raise OSError("mail server unreachable")
        return real_send(subject, body, sender, recipients)

    monkeypatch.setattr(emails, "send_mail", send_or_fail)
    result = tasks.mail_new_calendar_address.call(team.pk, "owner")
    assert result == 1
    assert mailed_addresses() == ["member@example.com"]
