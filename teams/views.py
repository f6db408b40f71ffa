"""Team pages: your teams, one team's members and, for owners, its settings."""

import logging
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.models import User
from accounts.requests import AuthenticatedHttpRequest

from . import domains, services
from .access import departure, member_team, owner_action, readers_time_zone
from .emails import calendar_url, send_invitation, site_url, webcal_url
from .forms import DomainForm, InviteForm, JoinLinkForm, TeamCreateForm, TeamSettingsForm
from .members import member_summary, members_page
from .models import Invitation, Membership, Team, with_sources
from .progress_views import FollowListForm
from .sessions import may_edit, next_session

logger = logging.getLogger(__name__)


# The team's page lists this many upcoming and as many past sessions, so that it costs the same
# for a team that meets every week for years; the rest are on the sessions page.
SESSIONS_SHOWN = 5


class InvitationNotSent(Exception):
    """The invitation's mail could not be sent, so the invitation was not kept."""


@login_required
@require_http_methods(["GET", "POST"])
def team_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    may_create = services.may_create_teams(request.user)
    form = TeamCreateForm(request.POST or None) if may_create else None
    if request.method == "POST" and form is not None and form.is_valid():
        team = services.create_team(owner=request.user, **form.cleaned_data)
        messages.success(request, f"{team.name} is created. Invite your colleagues here.")
        return redirect(f"{team.get_absolute_url()}#invite")
    memberships = (
        Membership.objects.filter(user=request.user).select_related("team").order_by("team__name")
    )
    status = 400 if request.method == "POST" else 200
    return render(
        request,
        "teams/team_list.html",
        {"memberships": memberships, "form": form, "may_create": may_create},
        status=status,
    )


def _detail_context(
    request: AuthenticatedHttpRequest, team: Team, member: Membership, **forms: object
) -> dict[str, Any]:
    sessions = with_sources(team.sessions.select_related("facilitator"))
    now = timezone.now()
    # One more than is shown tells whether there are others, without counting them.
    upcoming = list(sessions.filter(starts_at__gte=now)[: SESSIONS_SHOWN + 1])
    past = list(
        sessions.filter(starts_at__lt=now).order_by("-starts_at", "-pk")[: SESSIONS_SHOWN + 1]
    )
    context = {
        "team": team,
        "member": member,
        "member_summary": member_summary(team),
        "next_session": next_session(team),
        "upcoming": upcoming[:SESSIONS_SHOWN],
        "past": past[:SESSIONS_SHOWN],
        "more_sessions": len(upcoming) > SESSIONS_SHOWN or len(past) > SESSIONS_SHOWN,
        "may_plan": may_edit(None, team, request.user),
        "calendar_url": calendar_url(team),
        "webcal_url": webcal_url(team),
        # A sole owner may not leave, so they are not offered to.
        "may_leave": not member.is_owner or services.other_owners(team, request.user),
    }
    if member.is_owner:
        context |= {
            "invite_form": forms.get("invite_form") or InviteForm(),
            "link_form": forms.get("link_form") or JoinLinkForm(),
            "settings_form": forms.get("settings_form") or TeamSettingsForm(instance=team),
            "domain_form": forms.get("domain_form") or DomainForm(),
            "domains": team.domains.all(),
            "follow_form": FollowListForm(team=team),
            "join_links": [
                (link, site_url(link.get_absolute_url())) for link in team.join_links.all()
            ],
            "invitations": team.invitations.filter(accepted_at__isnull=True),
        }
    return context


def _render_detail(
    request: AuthenticatedHttpRequest,
    team: Team,
    member: Membership,
    status: int = 200,
    **forms: object,
) -> HttpResponse:
    template = "teams/team_detail.html"
    with readers_time_zone(request.user):
        return render(
            request,
            template,
            _detail_context(request, team, member, **forms),
            status=status,
        )


def _invite_panel(
    request: AuthenticatedHttpRequest, team: Team, member: Membership, status: int, **extra: object
) -> HttpResponse:
    """The invite panel alone, for htmx: the invitation confirms where it was sent from."""
    context = _detail_context(request, team, member, **extra) | extra
    with readers_time_zone(request.user):
        return render(request, "teams/team_detail.html#invite-panel", context, status=status)


@login_required
def team_detail(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    try:
        team, member = member_team(request, slug)
    except Http404:
        # A former member following their old link learns why it is closed to them; the
        # answer is still a 404, and anyone who was never a member gets the plain one.
        gone = departure(request, slug)
        if gone is None:
            raise
        return render(request, "teams/no_longer_member.html", {"departure": gone}, status=404)
    return _render_detail(request, team, member)


@login_required
@require_GET
def team_members(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """Every member of the team, a page at a time, with the owner's actions on each."""
    team, member = member_team(request, slug)
    page = members_page(team, request.GET.get("page"))
    context = {"team": team, "member": member, "page": page, "summary": member_summary(team)}
    return render(request, "teams/team_members.html", context)


@owner_action
@require_POST
def invite(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    team, member = member_team(request, slug, owner=True)
    form = InviteForm(request.POST)
    if form.is_valid():
        try:
            invitation = _invite_and_send(team, request.user, form.cleaned_data)
        except services.TeamError as error:
            form.add_error(None, str(error))
        except InvitationNotSent:
            form.add_error(
                None,
                "We could not send the invitation email, so no invitation was made. "
                "Check the address and try again in a few minutes.",
            )
        else:
            if request.htmx:
                return _invite_panel(request, team, member, 200, invite_sent=invitation.email)
            messages.success(request, f"An invitation is on its way to {invitation.email}.")
            return redirect(f"{team.get_absolute_url()}#invite")
    if request.htmx:
        # htmx swaps only successful answers by default; the form with its errors is one.
        return _invite_panel(request, team, member, 200, invite_form=form)
    return _render_detail(request, team, member, status=400, invite_form=form)


def _invite_and_send(team: Team, by: User, cleaned_data: dict[str, Any]) -> Invitation:
    return _record_and_send(team, lambda: services.invite(team=team, by=by, **cleaned_data))


def _record_and_send(team: Team, record: Callable[[], tuple[Invitation, str]]) -> Invitation:
    """Record the invitation and send its mail together: an invitation whose mail failed would
    count against the hourly limit, yet its link would exist nowhere."""
    try:
        with transaction.atomic():
            invitation, token = record()
            send_invitation(invitation, token)
    except services.TeamError:
        raise
    except Exception as error:
        logger.exception("invitation to team %s not sent", team.pk)
        raise InvitationNotSent from error
    return invitation


@owner_action
@require_POST
def resend_invitation(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    team, _ = member_team(request, slug, owner=True)
    try:
        invitation = _record_and_send(
            team, lambda: services.resend_invitation(team=team, by=request.user, pk=pk)
        )
    except services.TeamError as error:
        messages.error(request, str(error))
    except InvitationNotSent:
        messages.error(
            request,
            "We could not send the invitation email; the invitation is as it was. "
            "Try again in a few minutes.",
        )
    else:
        messages.success(
            request,
            f"The invitation is sent again to {invitation.email}; "
            "the link in the earlier mail no longer works.",
        )
    return redirect(f"{team.get_absolute_url()}#invite")


@owner_action
@require_POST
def withdraw_invitation(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    team, _ = member_team(request, slug, owner=True)
    try:
        invitation = services.withdraw_invitation(team=team, by=request.user, pk=pk)
    except services.TeamError as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request, f"The invitation to {invitation.email} is withdrawn; its link no longer works."
        )
    return redirect(f"{team.get_absolute_url()}#invite")


@owner_action
@require_POST
def create_join_link(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    team, member = member_team(request, slug, owner=True)
    form = JoinLinkForm(request.POST)
    if not form.is_valid():
        return _render_detail(request, team, member, status=400, link_form=form)
    services.create_join_link(
        team=team, by=request.user, expires=form.expires(), max_uses=form.cleaned_data["max_uses"]
    )
    messages.success(request, "A new join link is ready to share.")
    return redirect(f"{team.get_absolute_url()}#links")


@owner_action
@require_POST
def update_settings(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    team, member = member_team(request, slug, owner=True)
    form = TeamSettingsForm(request.POST, instance=team)
    if not form.is_valid():
        return _render_detail(request, team, member, status=400, settings_form=form)
    services.update_team(team=team, by=request.user, **form.cleaned_data)
    messages.success(request, "The team's settings are saved.")
    return redirect(team)


@owner_action
@require_POST
def add_domain(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    team, member = member_team(request, slug, owner=True)
    form = DomainForm(request.POST)
    if form.is_valid():
        try:
            row = domains.add_domain(team=team, by=request.user, **form.cleaned_data)
        except services.TeamError as error:
            form.add_error("domain", str(error))
        else:
            if row.is_active:
                messages.success(
                    request, f"Readers with a verified address at {row.domain} now join the team."
                )
            else:
                messages.info(
                    request,
                    f"To prove {row.domain} is yours, add the DNS TXT record shown below. "
                    "Readers there join once it is found.",
                )
            return redirect(f"{team.get_absolute_url()}#domains")
    return _render_detail(request, team, member, status=400, domain_form=form)
