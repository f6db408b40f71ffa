import re
from datetime import timedelta

import pytest
from django.core import mail
from django.core.management import call_command
from django.test import Client
from django.utils import timezone
from icalendar import Calendar
from pytest_django import Settings

from accounts.models import User
from teams.models import Session, Team
from tests.factories import SourceFactory


@pytest.fixture
def week_one(team: Team, owner: User) -> Session:
    session = Session.objects.create(
        team=team,
        title="Week 1: <attention>",
        starts_at=timezone.now() + timedelta(hours=20),
        facilitator=owner,
        agenda="**Discuss** <script>alert(1)</script>",
    )
    session.sources.set([SourceFactory(title="FlashAttention")])
    return session


def test_owner_plans_a_session_in_their_time_zone(client: Client, team: Team, owner: User) -> None:
    owner.time_zone = "Europe/Paris"
    owner.save()
    source = SourceFactory(slug="roofline", title="Roofline")
    client.force_login(owner)
    response = client.post(
        "/teams/inference/sessions/new/",
        {
            "title": "Roofline night",
            "starts_at": "2030-06-01T18:30",
            "source_slugs": "https://readinglist.test/sources/roofline/",
            "facilitator": owner.pk,
            "agenda": "",
        },
    )
    assert response.status_code == 302
    session = Session.objects.get(title="Roofline night")
    assert session.starts_at.isoformat() == "2030-06-01T16:30:00+00:00"
    assert list(session.sources.all()) == [source]


def test_session_form_reports_unknown_sources_and_keeps_input(
    client: Client, team: Team, owner: User
) -> None:
    client.force_login(owner)
    response = client.post(
        "/teams/inference/sessions/new/",
        {"title": "Kept title", "starts_at": "2030-06-01T18:30", "source_slugs": "nope"},
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert "No source is called “nope”." in page and "Kept title" in page


def test_members_see_next_session_with_sanitised_agenda(
    client: Client, team: Team, member: User, week_one: Session
) -> None:
    client.force_login(member)
    page = client.get("/teams/inference/").content.decode()
    assert "Next session:" in page and "Week 1: &lt;attention&gt;" in page
    assert "read <a" in page and "FlashAttention" in page
    assert "<strong>Discuss</strong>" in page and "<script>" not in page


def test_calendar_feed_parses_back(client: Client, team: Team, week_one: Session) -> None:
    response = client.get(f"/teams/inference/calendar/{team.calendar_token}.ics")
    assert response["Content-Type"].startswith("text/calendar")
    calendar = Calendar.from_ical(response.content)
    (event,) = calendar.walk("VEVENT")
    assert str(event["summary"]) == "Week 1: <attention>"
    assert event.decoded("dtstart") == week_one.starts_at.replace(microsecond=0)
    assert "FlashAttention" in str(event["description"])


@pytest.mark.parametrize(
    ("name", "calendar"),
    [
        ("Inference", "Inference reading group"),
        ("Kernels Reading Group", "Kernels Reading Group"),
    ],
)
def test_the_calendar_says_reading_group_once(
    client: Client, team: Team, name: str, calendar: str
) -> None:
    team.name = name
    team.save(update_fields=["name"])
    response = client.get(f"/teams/inference/calendar/{team.calendar_token}.ics")
    assert str(Calendar.from_ical(response.content)["x-wr-calname"]) == calendar


def test_rotating_the_calendar_token_kills_the_old_url(
    client: Client, team: Team, owner: User, week_one: Session
) -> None:
    old = f"/teams/inference/calendar/{team.calendar_token}.ics"
    client.force_login(owner)
    client.post("/teams/inference/calendar/rotate/")
    team.refresh_from_db()
    assert client.get(old).status_code == 404
    assert client.get(f"/teams/inference/calendar/{team.calendar_token}.ics").status_code == 200


def test_reminder_command_sends_once(
    settings: Settings, team: Team, member: User, week_one: Session
) -> None:
    settings.TEAMS_REMINDER_DAYS = 1
    Session.objects.create(team=team, title="Later", starts_at=timezone.now() + timedelta(days=5))
    call_command("send_session_reminders", verbosity=0)
    assert sorted(message.to[0] for message in mail.outbox) == [
        "member@example.com",
        "owner@example.com",
    ]
    assert all("Week 1: <attention>" in message.subject for message in mail.outbox)
    assert "FlashAttention" in mail.outbox[0].body
    call_command("send_session_reminders", verbosity=0)
    assert len(mail.outbox) == 2


def test_moving_a_session_rearms_its_reminder(
    client: Client, settings: Settings, team: Team, owner: User, week_one: Session
) -> None:
    call_command("send_session_reminders", verbosity=0)
    client.force_login(owner)
    client.post(
        f"/teams/inference/sessions/{week_one.pk}/edit/",
        {"title": week_one.title, "starts_at": "2030-01-01T10:00", "facilitator": owner.pk},
    )
    week_one.refresh_from_db()
    assert week_one.reminder_sent_at is None


def test_facilitator_may_edit_their_session_only(
    client: Client, team: Team, member: User, week_one: Session
) -> None:
    week_one.facilitator = member
    week_one.save()
    client.force_login(member)
    assert client.get(f"/teams/inference/sessions/{week_one.pk}/edit/").status_code == 200
    other = Session.objects.create(team=team, title="Other", starts_at=week_one.starts_at)
    assert client.get(f"/teams/inference/sessions/{other.pk}/edit/").status_code == 404


def test_profile_sets_the_time_zone_sessions_are_shown_in(
    client: Client, team: Team, member: User, week_one: Session
) -> None:
    client.force_login(member)
    client.post("/accounts/profile/", {"display_name": "", "time_zone": "Asia/Tokyo"})
    member.refresh_from_db()
    assert member.time_zone == "Asia/Tokyo"
    page = client.get("/teams/inference/").content.decode()
    assert "(JST)" in page
    bad = client.post("/accounts/profile/", {"display_name": "", "time_zone": "Mars/Base"})
    assert "Select a valid choice" in bad.content.decode()


def test_the_team_page_lists_a_few_sessions_and_links_to_them_all(
    client: Client, team: Team, owner: User, member: User
) -> None:
    now = timezone.now()
    Session.objects.bulk_create(
        Session(team=team, title=f"Week {n:02}", starts_at=now + timedelta(weeks=n - 10, hours=1))
        for n in range(30)
    )
    client.force_login(member)
    page = client.get("/teams/inference/").text
    shown = re.findall(r"<strong>(Week \d+)</strong>", page)
    # The next five upcoming, soonest first, then the last five, latest first.
    assert shown == [f"Week {n:02}" for n in [10, 11, 12, 13, 14, 9, 8, 7, 6, 5]]
    assert 'href="/teams/inference/sessions/">All sessions of Inference' in page
    everything = client.get("/teams/inference/sessions/").text
    assert len(re.findall(r"<strong>Week \d+</strong>", everything)) == 25
    assert "Page 1 of 2" in everything and "Plan a session" not in everything
    later = client.get("/teams/inference/sessions/?page=2").text
    assert re.findall(r"<strong>(Week \d+)</strong>", later)[-1] == "Week 00"


def test_the_sessions_page_is_for_members(client: Client, team: Team, other_reader: User) -> None:
    assert client.get("/teams/inference/sessions/").status_code == 302
    client.force_login(other_reader)
    assert client.get("/teams/inference/sessions/").status_code == 404
