"""Teams react to allauth: domain auto-join, and an invitation accepted by signing up."""

import logging

from allauth.account.models import EmailAddress
from allauth.account.signals import email_confirmed, user_signed_up
from allauth.socialaccount.signals import social_account_added
from django.contrib import messages
from django.http import HttpRequest

from . import domains, services
from .emails import send_domain_joined
from .models import Invitation

INVITATION_SESSION_KEY = "teams_invitation"
logger = logging.getLogger(__name__)


def _join_by_domain(request: HttpRequest | None, user, email: str) -> None:
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


def _join_verified_domains(request: HttpRequest | None, user) -> None:
    for address in EmailAddress.objects.filter(user=user, verified=True):
        _join_by_domain(request, user, address.email)


def on_email_confirmed(sender, request, email_address, **kwargs):
    _join_by_domain(request, email_address.user, email_address.email)


def on_user_signed_up(sender, request, user, **kwargs):
    _accept_pending_invitation(request, user)
    _join_verified_domains(request, user)


def on_social_account_added(sender, request, sociallogin, **kwargs):
    _join_verified_domains(request, sociallogin.user)


def _accept_pending_invitation(request, user) -> None:
    """A reader who signed up from an invitation joins its team; the invited address is then
    verified, since the invitation reached it."""
    token = request.session.pop(INVITATION_SESSION_KEY, None) if request else None
    invitation = services.find_invitation(token) if token else None
    if invitation is None or services.invitation_problem(invitation, user):
        return
    services.accept_invitation(invitation=invitation, user=user)
    if user.email.lower() == invitation.email.lower():
        EmailAddress.objects.filter(user=user, email__iexact=invitation.email).update(verified=True)


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
