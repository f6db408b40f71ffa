"""Emails the teams app sends, with absolute links to the configured site (SITE_DOMAIN)."""

from django.conf import settings
from django.core.mail import send_mail
from django.template.loader import render_to_string
from django.urls import reverse

from readinglist import site_address

from .models import Invitation, Session


def site_url(path: str = "") -> str:
    # Emails and commands run away from a request, so the address comes from settings.
    return site_address.site_url(path)


def _send(template: str, context: dict, recipients: list[str]) -> None:
    context = {**context, "site_name": settings.SITE_NAME}
    send_mail(
        render_to_string(f"teams/email/{template}_subject.txt", context).strip(),
        render_to_string(f"teams/email/{template}.txt", context),
        None,
        recipients,
    )


def send_invitation(invitation: Invitation, token: str) -> None:
    link = site_url(reverse("teams:invitation", args=[token]))
    _send("invitation", {"invitation": invitation, "link": link}, [invitation.email])


def send_reminder(session: Session, recipient) -> None:
    context = {
        "session": session,
        "reader": recipient,
        "sources": list(session.sources.all()),
        "team_url": site_url(session.team.get_absolute_url()),
    }
    _send("reminder", context, [recipient.email])
