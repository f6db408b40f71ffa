"""Emails the teams app sends, with absolute links to the configured site (SITE_DOMAIN)."""

from typing import Any

from django.conf import settings
from django.core import signing
from django.core.mail import send_mail
from django.template.loader import render_to_string
from django.urls import reverse

from accounts.models import User
from accounts.validators import one_line
from catalog.models import Source
from readinglist import site_address

from .models import Invitation, Session, Team


def site_url(path: str = "") -> str:
    # Emails and commands run away from a request, so the address comes from settings.
    return site_address.site_url(path)


def _send(template: str, context: dict[str, Any], recipients: list[str]) -> None:
    context = {**context, "site_name": settings.SITE_NAME}
    # Names in the subject come from stored rows; a line break left in one (written before
    # names were checked, or around the forms) must not make the mail package refuse the mail.
    subject = one_line(render_to_string(f"teams/email/{template}_subject.txt", context))
    send_mail(subject, render_to_string(f"teams/email/{template}.txt", context), None, recipients)


def send_invitation(invitation: Invitation, token: str) -> None:
    link = site_url(reverse("teams:invitation", args=[token]))
    _send("invitation", {"invitation": invitation, "link": link}, [invitation.email])


REMINDERS_OFF_SALT = "teams.reminders-off"


def reminders_off_url(recipient: User) -> str:
    """A link that turns this reader's reminders off in one click, without signing in."""
    token = signing.dumps(recipient.pk, salt=REMINDERS_OFF_SALT)
    return site_url(reverse("teams:reminders-off", args=[token]))


def reader_of_reminders_off_token(token: str) -> int | None:
    try:
        return int(signing.loads(token, salt=REMINDERS_OFF_SALT))
    except (signing.BadSignature, TypeError, ValueError):
        return None


def send_reminder(session: Session, recipient: User) -> None:
    # The reader's status per source comes from the library's {% reading_of %} tag in the
    # template: teams does not read the library itself.
    context = {
        "session": session,
        "reader": recipient,
        # Through all_objects: the related manager leaves out the team's own private sources.
        "sources": list(Source.all_objects.filter(team_sessions=session)),
        "session_url": site_url(session.get_absolute_url()),
        "reminders_off_url": reminders_off_url(recipient),
    }
    _send("reminder", context, [recipient.email])


def calendar_url(team: Team) -> str:
    return site_url(reverse("teams:calendar", args=[team.slug, team.calendar_token]))


def webcal_url(team: Team) -> str:
    """The feed's address as a link calendar apps open to subscribe in one click."""
    _, _, rest = calendar_url(team).partition("://")
    return f"webcal://{rest}"


def send_calendar_address(team: Team, recipient: User, reason: str) -> None:
    """Tell a member the calendar's new address; `reason` is "membership" when it changed
    because someone left or was removed, "owner" when an owner asked for it."""
    context = {
        "team": team,
        "reader": recipient,
        "reason": reason,
        "calendar_url": calendar_url(team),
        "webcal_url": webcal_url(team),
        "team_url": site_url(team.get_absolute_url()),
    }
    _send("calendar_address", context, [recipient.email])


def send_domain_joined(team: Team, recipient: User, email: str) -> None:
    """Tell a reader they joined a team through their address's domain, and how to leave."""
    context = {
        "team": team,
        "reader": recipient,
        "email": email,
        "domain": email.rsplit("@", 1)[-1],
        "team_url": site_url(team.get_absolute_url()),
    }
    _send("domain_joined", context, [recipient.email])


def send_team_deleted(team_name: str, deleted_by: str, recipient: User) -> None:
    context = {
        "team_name": team_name,
        "deleted_by": deleted_by,
        "reader": recipient,
        "notes_url": site_url(reverse("notes:mine")),
    }
    _send("team_deleted", context, [recipient.email])


def send_removed(team: Team, recipient: User, removed_by: str) -> None:
    context = {
        "team": team,
        "reader": recipient,
        "removed_by": removed_by,
        "notes_url": site_url(reverse("notes:mine")),
        "teams_url": site_url(reverse("teams:list")),
    }
    _send("removed", context, [recipient.email])
