"""Reminders and calendar events that say what to read: the session's own page, the reader's
status for each source, place, meeting link and length, and reminders a reader can turn off."""

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.core.mail import EmailMessage
from django.core.management import call_command
from django.test import Client
from django.utils import timezone
from icalendar import Calendar
from pytest_django import Settings

from accounts.models import User
from library.models import Bookmark
from teams.models import ReminderSettings, Session, Team
from tests.factories import SourceFactory
from tests.hints import found

OFF_LINK = re.compile(r"https?://[^/\s]+(/reminders/off/\S+/)")


def wants_reminders(reader: User) -> bool:
    """Readers without settings of their own get reminders."""
    row = ReminderSettings.objects.filter(user=reader).first()
    return row is None or row.session_reminders


@pytest.fixture
def session(team: Team, owner: User, member: User) -> Session:
    session = Session.objects.create(
        team=team,
        title="Serving night",
        starts_at=timezone.now() + timedelta(hours=20),
        duration_minutes=90,
        place="Room 4.02",
        meeting_url="https://meet.example.com/serving",
    )
    flash = SourceFactory(slug="flashattention", title="FlashAttention")
    paged = SourceFactory(slug="pagedattention", title="PagedAttention")
    session.sources.set([flash, paged])
    Bookmark.objects.create(user=member, source=flash, status="read")
    return session


def reminder_to(email: str) -> EmailMessage:
    (message,) = [message for message in mail.outbox if message.to == [email]]
    return message


def test_a_reminder_links_the_session_and_says_what_the_reader_read(
    settings: Settings, session: Session
) -> None:
    settings.TEAMS_REMINDER_DAYS = 1
    call_command("send_session_reminders", verbosity=0)
    body = reminder_to("member@example.com").body
    assert f"https://readinglist.test/teams/inference/sessions/{session.pk}/" in body
    assert "- FlashAttention (you read it)" in body
    assert "- PagedAttention (not started yet)" in body
    assert "Where: Room 4.02" in body
    assert "Meeting link: https://meet.example.com/serving" in body
    assert "for 90 minutes" in body
    assert "- FlashAttention (not started yet)" in reminder_to("owner@example.com").body


def test_one_click_from_the_mail_turns_reminders_off(
    client: Client, settings: Settings, session: Session, member: User
) -> None:
    settings.TEAMS_REMINDER_DAYS = 1
    call_command("send_session_reminders", verbosity=0)
    link = found(OFF_LINK.search(str(reminder_to("member@example.com").body))).group(1)
    page = client.get(link)
    assert page.status_code == 200
    assert wants_reminders(member)  # a mail scanner following the link changes nothing
    assert "Reminders are off" in client.post(link).text
    assert not wants_reminders(member)

    mail.outbox.clear()
    Session.objects.create(
        team=session.team, title="Week 2", starts_at=timezone.now() + timedelta(hours=10)
    )
    call_command("send_session_reminders", verbosity=0)
    assert [message.to for message in mail.outbox] == [["owner@example.com"]]


def test_a_tampered_link_is_refused(client: Client, member: User) -> None:
    assert client.get("/reminders/off/not-a-signed-token/").status_code == 404


def test_the_profile_turns_reminders_off_and_on(client: Client, member: User) -> None:
    client.force_login(member)
    page = client.get("/accounts/profile/").text
    assert "Email me before my teams&#x27; reading-group sessions" in page
    client.post("/accounts/profile/", {"display_name": "", "time_zone": "UTC"})
    assert not wants_reminders(member)
    client.post(
        "/accounts/profile/", {"display_name": "", "time_zone": "UTC", "session_reminders": "on"}
    )
    assert wants_reminders(member)


def test_calendar_events_carry_the_session_place_length_and_reading(
    client: Client, team: Team, session: Session
) -> None:
    response = client.get(f"/teams/inference/calendar/{team.calendar_token}.ics")
    (event,) = Calendar.from_ical(response.content).walk("VEVENT")
    assert str(event["url"]) == f"https://readinglist.test/teams/inference/sessions/{session.pk}/"
    assert event.decoded("dtend") - event.decoded("dtstart") == timedelta(minutes=90)
    assert str(event["location"]) == "Room 4.02"
    description = str(event["description"])
    assert "- FlashAttention: https://readinglist.test/sources/flashattention/" in description
    assert "- PagedAttention" in description
    assert "Meeting link: https://meet.example.com/serving" in description
