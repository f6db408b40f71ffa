"""Team names, session titles and display names stay on one line, and mail never breaks on them."""

import smtplib
from datetime import timedelta
from io import StringIO

import pytest
from django.core import mail
from django.core.management import call_command
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.utils import timezone
from pytest_django import Settings

from accounts.models import User
from teams import emails, sessions
from teams.models import Invitation, Session, Team
from tests.factories import UserFactory

BROKEN = ["Line one\nBcc: victim@example.com", "Tab\there", "Carriage\rreturn", "Sep\u2028arated"]


@pytest.mark.parametrize("name", BROKEN)
def test_team_form_refuses_a_name_with_a_line_break(client: Client, owner: User, name: str) -> None:
    client.force_login(owner)
    response = client.post("/teams/", {"name": name, "description": ""})
    assert response.status_code == 400
    assert "Use one line, without line breaks" in response.text
    assert not Team.objects.filter(name=name).exists()


def test_session_form_refuses_a_multi_line_title(client: Client, team: Team, owner: User) -> None:
    client.force_login(owner)
    response = client.post(
        f"/teams/{team.slug}/sessions/new/",
        {"title": "Week 1\r\nBcc: x@example.com", "starts_at": "2030-06-01T18:30"},
    )
    assert "Use one line, without line breaks" in response.text
    assert not Session.objects.exists()


def test_profile_form_refuses_a_multi_line_display_name(client: Client, member: User) -> None:
    client.force_login(member)
    response = client.post("/accounts/profile/", {"display_name": "Ann\nBcc: x@example.com"})
    assert "Use one line, without line breaks" in response.text
    member.refresh_from_db()
    assert member.display_name == ""


@pytest.mark.parametrize(
    ("model", "field"),
    [(Team, "name"), (Session, "title"), (UserFactory._meta.model, "display_name")],
)
@pytest.mark.parametrize("breaking", ["\n", "\r", "\t", "\x7f", "\u2028"])
def test_database_refuses_line_breaks_written_around_the_forms(
    team: Team, member: User, model: type[Team | Session | User], field: str, breaking: str
) -> None:
    row: Team | Session | User = member
    if model is Team:
        row = team
    elif model is Session:
        row = Session.objects.create(team=team, title="Fine", starts_at=timezone.now())
    with pytest.raises(IntegrityError), transaction.atomic():
        model.objects.filter(pk=row.pk).update(**{field: f"two{breaking}lines"})
    # Unicode letters and ordinary spaces are fine.
    model.objects.filter(pk=row.pk).update(**{field: "Café · Zürich readers"})


def test_mail_subject_stays_one_line_whatever_the_stored_name(team: Team, owner: User) -> None:
    # A name read before the constraint existed, or from another writer, still mails.
    team.name = "Inference\nBcc: victim@example.com"
    owner.display_name = "Ann\r\nX-Evil: 1"
    invitation = Invitation(team=team, email="new@example.com", invited_by=owner)
    emails.send_invitation(invitation, "token")
    (message,) = mail.outbox
    assert message.subject == (
        "Ann X-Evil: 1 invites you to Inference Bcc: victim@example.com on readinglist"
    )
    assert message.to == ["new@example.com"]


@pytest.fixture
def due_session(team: Team, member: User) -> Session:
    return Session.objects.create(
        team=team, title="Week 1", starts_at=timezone.now() + timedelta(hours=2)
    )


def test_one_failing_reminder_does_not_stop_the_others(
    monkeypatch: pytest.MonkeyPatch, settings: Settings, due_session: Session, team: Team
) -> None:
    later_team_owner = UserFactory(email="later@example.com")
    later = Team.objects.create(name="Later team", slug="later-team")
    later.memberships.create(user=later_team_owner, role="owner")
    Session.objects.create(team=later, title="Other", starts_at=timezone.now() + timedelta(hours=3))
    real_send = emails.send_mail

    def send_or_fail(subject: str, body: str, sender: str | None, recipients: list[str]) -> int:
        if recipients == ["owner@example.com"]:
            raise smtplib.SMTPRecipientsRefused({"owner@example.com": (550, b"no such user")})
        return real_send(subject, body, sender, recipients)

    monkeypatch.setattr(emails, "send_mail", send_or_fail)
    out, err = StringIO(), StringIO()
    call_command("send_session_reminders", stdout=out, stderr=err)

    assert sorted(message.to[0] for message in mail.outbox) == [
        "later@example.com",
        "member@example.com",
    ]
    assert "Sent 2 reminder(s) for 2 session(s)" in out.getvalue()
    assert "Could not send the reminder for “Week 1” to owner@example.com." in err.getvalue()
    # The session is marked reminded: a rerun must not mail the member a second time.
    assert sessions.send_due_reminders().sessions == 0
    assert len(mail.outbox) == 2


def test_an_invitation_whose_mail_fails_is_not_kept(
    monkeypatch: pytest.MonkeyPatch, client: Client, team: Team, owner: User
) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise smtplib.SMTPServerDisconnected("Connection unexpectedly closed")

    monkeypatch.setattr(emails, "send_mail", refuse)
    client.force_login(owner)
    response = client.post(f"/teams/{team.slug}/invite/", {"email": "new@example.com"})
    assert response.status_code == 400
    assert "We could not send the invitation email, so no invitation was made." in response.text
    assert 'value="new@example.com"' in response.text
    assert not Invitation.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_migration_flattens_existing_multi_line_names() -> None:
    before = [("teams", "0002_maintainer_permissions"), ("accounts", "0006_bookmark_note_move_out")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    # The models as they were at `before` (migrate() returns the state of its last step).
    apps = executor.loader.project_state(before).apps
    OldUser = apps.get_model("accounts", "User")
    OldTeam = apps.get_model("teams", "Team")
    OldSession = apps.get_model("teams", "Session")
    user = OldUser.objects.create(email="a@example.com", password="!", display_name="Ann\n\tLee")
    team = OldTeam.objects.create(name="Read\r\nBcc: x@example.com", slug="read")
    session = OldSession.objects.create(team=team, title="\n", starts_at=timezone.now())

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    assert UserFactory._meta.model.objects.get(pk=user.pk).display_name == "Ann Lee"
    assert Team.objects.get(pk=team.pk).name == "Read Bcc: x@example.com"
    assert Session.objects.get(pk=session.pk).title == "Session"
