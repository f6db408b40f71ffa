"""Teams react to allauth: domain auto-join, and an invitation accepted by signing up."""

import logging
from typing import Any

from allauth.account.models import EmailAddress
from allauth.account.signals import email_confirmed, user_signed_up
from allauth.socialaccount.models import SocialLogin
from allauth.socialaccount.signals import social_account_added
from django.contrib import messages
from django.http import HttpRequest
from django.urls import reverse

from accounts.models import User
from accounts.signup import AFTER_SIGNUP_SESSION_KEY, AFTER_VERIFICATION_SESSION_KEY

from . import domains, joining, services
from .emails import send_domain_joined
from .models import Invitation

INVITATION_SESSION_KEY = "teams_invitation"
logger = logging.getLogger(__name__)


def _join_by_domain(request: HttpRequest | None, user: User, email: str) -> None:
    """Join the teams that proved the address's domain, and tell the reader which: joining
    silently would let a team see their reading without them knowing."""
    for team in domains.join_teams_by_domain(user=user, email=email):
        if request is not None:
            messages.info(
                request,
                f"You joined the team {team.name} because your address {email} is at a domain "
                "it reads with. You can leave it from the team's page.",
            )
        try:
            send_domain_joined(team, user, email)
        except Exception:
            # The message above already told them; a mail failure must not undo the sign-in.
            logger.exception("domain-join mail for team %s to user %s not sent", team.pk, user.pk)


def _join_verified_domains(request: HttpRequest | None, user: User) -> None:
    for address in EmailAddress.objects.filter(user=user, verified=True):
        _join_by_domain(request, user, address.email)


def on_email_confirmed(
    sender: object, request: HttpRequest | None, email_address: EmailAddress, **kwargs: Any
) -> None:
    _join_by_domain(request, email_address.user, email_address.email)
    joining.complete_pending_join(request, email_address.user)


def on_user_signed_up(
    sender: object, request: HttpRequest | None, user: User, **kwargs: Any
) -> None:
    _accept_pending_invitation(request, user)
    joining.join_after_signup(request, user)
    _join_verified_domains(request, user)


def on_social_account_added(
    sender: object, request: HttpRequest | None, sociallogin: SocialLogin, **kwargs: Any
) -> None:
    _join_verified_domains(request, sociallogin.user)


def claim_invitation_at_signup(request: HttpRequest | None, user: User) -> bool:
    """The sign-up claim accounts runs with the new account (invitation-only sign-up)."""
    invitation = pending_invitation(request)
    if invitation is None:
        return False
    try:
        services.claim_invitation(invitation=invitation, user=user)
    except services.TeamError:
        return False
    return True


def _accept_pending_invitation(request: HttpRequest | None, user: User) -> None:
    """A reader who signed up from an invitation joins its team: at once when the invitation
    went to their address (which it thereby verifies) or their address is verified, else
    once they verify it."""
    if request is None:
        return
    token = request.session.pop(INVITATION_SESSION_KEY, None)
    invitation = services.find_invitation(token) if token else None
    if invitation is None:
        return
    team = invitation.team
    try:
        services.accept_invitation(invitation=invitation, user=user)
    except services.EmailNotVerified:
        request.session[joining.PENDING_JOIN_SESSION_KEY] = {"kind": "invitation", "token": token}
        request.session[AFTER_VERIFICATION_SESSION_KEY] = team.get_absolute_url()
        request.session[AFTER_SIGNUP_SESSION_KEY] = reverse("teams:verify-to-join")
    except services.TeamError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, f"Welcome to {team.name}.")
        request.session[AFTER_SIGNUP_SESSION_KEY] = team.get_absolute_url()


def pending_invitation(request: HttpRequest | None) -> Invitation | None:
    """The valid invitation this visitor arrived with, if any: the sign-up gate accounts asks
    when sign-up is by invitation only."""
    token = request.session.get(INVITATION_SESSION_KEY) if request is not None else None
    invitation = services.find_invitation(token) if token else None
    if invitation is None or services.invitation_problem(invitation):
        return None
    return invitation


def connect_signals() -> None:
    email_confirmed.connect(on_email_confirmed, dispatch_uid="teams.email_confirmed")
    user_signed_up.connect(on_user_signed_up, dispatch_uid="teams.user_signed_up")
    social_account_added.connect(on_social_account_added, dispatch_uid="teams.social_added")
