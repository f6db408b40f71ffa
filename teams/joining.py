"""A verified address before any membership.

Otherwise anyone could register a colleague's address unverified, join teams with it, and be
in those teams (under the display name they chose) on the day the colleague first signs in
with their organisation's identity provider. So an account whose address is not verified
joins no team by link or invitation: it is sent a verification mail, what it asked to join
is kept in its session, and confirming the address completes the join and lands on the team.
"""

from typing import cast

from allauth.account.models import EmailAddress
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from accounts.models import User
from accounts.signup import AFTER_SIGNUP_SESSION_KEY, AFTER_VERIFICATION_SESSION_KEY

from . import services
from .models import Invitation, JoinLink, Team
from .services import email_verified

PENDING_JOIN_SESSION_KEY = "teams_pending_join"


def ask_to_verify(
    request: HttpRequest, *, kind: str, token: str, team: Team, resend: bool = False
) -> HttpResponse:
    """Keep the join for after verification, send the verification mail, and say so. A reader
    who asks for the mail again (`resend`) gets it again; pressing Join again does not."""
    pending = {"kind": kind, "token": token}
    # Pressing Join again shows the page without another mail: the email settings page
    # resends it, under allauth's rate limit.
    already_sent = request.session.get(PENDING_JOIN_SESSION_KEY) == pending
    request.session[PENDING_JOIN_SESSION_KEY] = pending
    request.session[AFTER_VERIFICATION_SESSION_KEY] = team.get_absolute_url()
    user = cast(User, request.user)  # only signed-in readers reach a join
    if resend or not already_sent:
        address, _ = EmailAddress.objects.get_or_create(
            user=user, email__iexact=user.email, defaults={"email": user.email, "primary": True}
        )
        address.send_confirmation(request)
    return render(
        request, "teams/verify_first.html", {"team": team, "email": user.email}, status=403
    )


def remember_for_signup(request: HttpRequest, *, kind: str, token: str, team: Team) -> None:
    """A visitor who is not signed in opened a join link or invitation: whichever way they
    then sign up, the join waits for them and they come back to the team."""
    request.session[PENDING_JOIN_SESSION_KEY] = {"kind": kind, "token": token}
    request.session[AFTER_VERIFICATION_SESSION_KEY] = team.get_absolute_url()


def join_after_signup(request: HttpRequest | None, user: User) -> None:
    """Right after sign-up: join what the visitor opened, if their address is already verified
    (an identity provider, or the invitation went to it); otherwise it waits for verification
    (see complete_pending_join) and they are shown what to do."""
    if request is None or not hasattr(request, "session"):
        return
    pending = request.session.get(PENDING_JOIN_SESSION_KEY)
    if not isinstance(pending, dict):
        return
    token = str(pending.get("token", ""))
    team = _pending_team(pending.get("kind"), token)
    if team is None:
        request.session.pop(PENDING_JOIN_SESSION_KEY, None)
        return
    if email_verified(user):
        joined = complete_pending_join(request, user, welcome="Welcome to {team}.")
        if joined is not None:
            request.session.pop(AFTER_VERIFICATION_SESSION_KEY, None)
            request.session[AFTER_SIGNUP_SESSION_KEY] = joined.get_absolute_url()
        return
    request.session[AFTER_VERIFICATION_SESSION_KEY] = team.get_absolute_url()
    request.session[AFTER_SIGNUP_SESSION_KEY] = reverse("teams:verify-to-join")


def _pending_team(kind: str | None, token: str) -> Team | None:
    if kind == "link":
        link = JoinLink.objects.select_related("team").filter(token=token).first()
        return link.team if link is not None else None
    if kind == "invitation":
        invitation = services.find_invitation(token)
        return invitation.team if invitation is not None else None
    return None


def pending_team(request: HttpRequest) -> Team | None:
    """The team this reader's session is waiting to join, if any."""
    pending = request.session.get(PENDING_JOIN_SESSION_KEY)
    if not isinstance(pending, dict):
        return None
    return _pending_team(pending.get("kind"), str(pending.get("token", "")))


def pending_kind_and_token(request: HttpRequest) -> tuple[str, str]:
    pending = request.session.get(PENDING_JOIN_SESSION_KEY) or {}
    return str(pending.get("kind", "")), str(pending.get("token", ""))


def complete_pending_join(
    request: HttpRequest | None,
    user: User,
    welcome: str = "Your address is verified. Welcome to {team}.",
) -> Team | None:
    """After the reader verified their address: the join they asked for, if it still works."""
    if request is None or not hasattr(request, "session"):
        return None
    pending = request.session.pop(PENDING_JOIN_SESSION_KEY, None)
    if not isinstance(pending, dict) or not email_verified(user):
        return None
    token = str(pending.get("token", ""))
    try:
        team = _join_pending(pending.get("kind"), token, user)
    except services.TeamError as error:
        messages.error(request, str(error))
        return None
    if team is not None:
        messages.success(request, welcome.format(team=team.name))
    return team


def _join_pending(kind: object, token: str, user: User) -> Team | None:
    if kind == "link":
        link = JoinLink.objects.select_related("team").filter(token=token).first()
        if link is None:
            return None
        services.join_by_link(link=link, user=user)
        return link.team
    if kind == "invitation":
        invitation: Invitation | None = services.find_invitation(token)
        if invitation is None:
            return None
        if services.membership(invitation.team, user) is None:
            services.accept_invitation(invitation=invitation, user=user)
        return invitation.team
    return None
