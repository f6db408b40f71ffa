"""Reading-group sessions: who may plan them, the next one, and reminders."""

import logging
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from accounts.models import User

from .emails import send_reminder
from .forms import SessionForm
from .models import Membership, Session, Team, with_sources
from .services import TeamError

logger = logging.getLogger(__name__)


def may_edit(session: Session | None, team: Team, user: User) -> bool:
    """Owners plan sessions; a session's facilitator may also edit that session."""
    if Membership.objects.filter(team=team, user=user, role=Membership.Role.OWNER).exists():
        return True
    return session is not None and session.facilitator_id == user.pk


@transaction.atomic
def save_session(*, form: SessionForm, team: Team, by: User) -> Session:
    """Save a validated session form for the team, checking who may plan it."""
    session = form.instance if form.instance.pk else None
    if not may_edit(session, team, by):
        raise TeamError("Only the team's owners and the session's facilitator may edit it.")
    form.instance.team = team
    if session is not None and "starts_at" in form.changed_data:
        # A moved session deserves a fresh reminder.
        form.instance.reminder_sent_at = None
    return form.save()


def next_session(team: Team) -> Session | None:
    return with_sources(
        team.sessions.filter(starts_at__gte=timezone.now()).select_related("facilitator")
    ).first()


def next_sessions_of(user: User, since: datetime | None = None) -> list[Session]:
    """The next session of each of the reader's teams, by start: two queries."""
    since = since or timezone.now()
    upcoming = with_sources(
        Session.objects.filter(team__memberships__user=user, starts_at__gte=since)
        .select_related("team")
        .order_by("team_id", "starts_at", "pk")
    )
    firsts: dict[int, Session] = {}
    for session in upcoming:
        firsts.setdefault(session.team_id, session)
    return sorted(firsts.values(), key=lambda session: (session.starts_at, session.pk))


def due_for_reminder(now: datetime | None = None) -> QuerySet[Session]:
    now = now or timezone.now()
    horizon = now + timedelta(days=settings.TEAMS_REMINDER_DAYS)
    return Session.objects.filter(
        reminder_sent_at__isnull=True, starts_at__gt=now, starts_at__lte=horizon
    ).select_related("team")


@dataclass
class ReminderReport:
    sessions: int = 0
    sent: int = 0
    # (session title, recipient address) of each mail that could not be sent.
    failed: list[tuple[str, str]] = field(default_factory=list)


def _remind_members(session: Session, report: ReminderReport) -> None:
    # Readers without settings of their own get reminders.
    readers = session.team.members.filter(is_active=True).exclude(
        reminder_settings__session_reminders=False
    )
    for member in readers.order_by("pk"):
        try:
            send_reminder(session, member)
        except Exception:
            # One bad address or a mail server hiccup must not cost every other member (and
            # every later team) their reminder.
            logger.exception("reminder for session %s to user %s not sent", session.pk, member.pk)
            report.failed.append((session.title, member.email))
        else:
            report.sent += 1


def send_due_reminders(now: datetime | None = None) -> ReminderReport:
    """Email every member about each session starting soon, once per session; a mail that fails
    is reported and not retried, so the others are never sent twice."""
    report = ReminderReport()
    for candidate in due_for_reminder(now):
        with transaction.atomic():
            # Locked and re-checked, so two runs at once cannot both send a session's reminder.
            session = (
                Session.objects.select_for_update()
                .filter(pk=candidate.pk, reminder_sent_at__isnull=True)
                .select_related("team")
                .first()
            )
            if session is None:
                continue
            _remind_members(session, report)
            session.reminder_sent_at = timezone.now()
            session.save(update_fields=["reminder_sent_at"])
            report.sessions += 1
    return report
