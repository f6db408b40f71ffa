"""A team plans sessions with its own sources: the planner finds them by title or address for
that team only, and the session page, reminder and calendar name them to that team alone."""

import pytest
from django.core import mail
from django.test import Client
from pytest_django import Settings

from accounts.models import User
from teams.calendar import team_calendar
from teams.models import Session, Team
from teams.sessions import send_due_reminders
from teamsources.models import TeamSource

from .conftest import add, markdown

pytestmark = pytest.mark.django_db

SECRET = "Zanzibar design notes"


@pytest.fixture
def kept(client: Client, team: Team, member: User) -> TeamSource:
    client.force_login(member)
    add(client, team, title=SECRET, url="http://wiki.corp.internal/zanzibar", file=markdown())
    client.logout()
    return TeamSource.objects.select_related("source").get()


def plan(client: Client, team: Team, sources: str, starts_at: str = "2030-06-01T18:30") -> int:
    data = {"title": "Design night", "starts_at": starts_at, "source_slugs": sources}
    return client.post(f"/teams/{team.slug}/sessions/new/", data).status_code


def test_an_owner_plans_a_session_with_the_team_source_by_title_or_address(
    client: Client, team: Team, owner: User, member: User, kept: TeamSource
) -> None:
    client.force_login(owner)
    assert plan(client, team, SECRET.lower()) == 302
    address = f"https://example.com{kept.source.get_absolute_url()}"
    assert plan(client, team, address) == 302
    for session in Session.objects.filter(team=team):
        assert [source.pk for source in Session.sources.through.objects.filter(session=session)]
        client.force_login(member)
        page = client.get(session.get_absolute_url()).text
        assert SECRET in page
        assert kept.source.get_absolute_url() in page
        # Editing shows it and keeps it; taking it off takes it off.
        edit = f"/teams/{team.slug}/sessions/{session.pk}/edit/"
        client.force_login(owner)
        assert SECRET in client.get(edit).text
        data = {"title": "Design night", "starts_at": "2030-06-01T18:30", "source_slugs": ""}
        assert client.post(edit, data).status_code == 302
        assert not Session.sources.through.objects.filter(session=session).exists()


def test_another_team_cannot_plan_it_whatever_it_types(
    client: Client, other_team: Team, outsider: User, kept: TeamSource
) -> None:
    client.force_login(outsider)
    for typed in (SECRET, kept.source.slug, kept.source.get_absolute_url()):
        assert plan(client, other_team, typed) == 400
    assert not Session.objects.filter(team=other_team).exists()


def test_a_member_of_both_teams_cannot_carry_it_into_the_other_team(
    client: Client, team: Team, other_team: Team, outsider: User, kept: TeamSource
) -> None:
    from teams.models import Membership

    Membership.objects.create(team=team, user=outsider)
    client.force_login(outsider)
    assert plan(client, other_team, SECRET) == 400


def test_reminder_and_calendar_name_it_for_its_team(
    client: Client,
    settings: Settings,
    team: Team,
    owner: User,
    other_team: Team,
    kept: TeamSource,
) -> None:
    from datetime import timedelta

    from django.utils import timezone

    client.force_login(owner)
    soon = (timezone.localtime() + timedelta(hours=12)).strftime("%Y-%m-%dT%H:%M")
    assert plan(client, team, SECRET, starts_at=soon) == 302
    assert SECRET in team_calendar(team).decode()
    assert SECRET not in team_calendar(other_team).decode()
    settings.TEAMS_REMINDER_DAYS = 1
    send_due_reminders()
    assert mail.outbox
    assert all(SECRET in message.body for message in mail.outbox)
    recipients = {address for message in mail.outbox for address in message.to}
    assert recipients <= set(team.members.values_list("email", flat=True))
