"""Actions that cannot be undone, each asked on a page of its own before it happens.

GET shows what will happen and a button; only the POST from that page acts. The pages work
without JavaScript, and whoever may not act gets 404 on both, so an id reveals nothing.
"""

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods

from accounts.models import User
from accounts.requests import AuthenticatedHttpRequest

from . import domains, services
from .access import member_team, owner_action
from .models import JoinLink, Team, TeamDomain


@dataclass
class Question:
    """What the confirmation page asks, and what happens if the reader says yes."""

    title: str
    button: str
    consequences: list[str] = field(default_factory=list)
    # Why the action cannot happen at all; the page then says so and offers no button.
    refusal: str = ""


def confirmed_action(view: Callable) -> Callable:
    """GET asks, POST acts; a visitor who is not signed in is sent to sign in first, as on
    every other member's page."""
    return login_required(require_http_methods(["GET", "POST"])(view))


def confirmed_owner_action(view: Callable) -> Callable:
    """GET asks, POST acts, for owners only; a visitor who is not signed in gets 404, as a
    non-member does (see owner_action)."""
    return owner_action(require_http_methods(["GET", "POST"])(view))


def _ask(request: HttpRequest, team: Team, question: Question) -> HttpResponse:
    return render(
        request,
        "teams/confirm.html",
        {"team": team, "question": question},
        status=409 if question.refusal else 200,
    )


def _settings_url(team: Team, anchor: str) -> str:
    return f"{team.get_absolute_url()}#{anchor}"


def _member(team: Team, user_id: int) -> User:
    return get_object_or_404(get_user_model(), pk=user_id, memberships__team=team)


@confirmed_owner_action
def remove_member(request: AuthenticatedHttpRequest, slug: str, user_id: int) -> HttpResponse:
    team, _ = member_team(request, slug, owner=True)
    reader = _member(team, user_id)
    if request.method == "GET":
        return _ask(
            request,
            team,
            Question(
                title=f"Remove {reader.public_name} from {team.name}?",
                button=f"Remove {reader.public_name}",
                consequences=[
                    f"{reader.public_name} no longer sees the team's notes, sessions or reading.",
                    "Their notes shared with the team become private to them.",
                    "They are told by email that they were removed.",
                    "The team calendar gets a new secret address, so the one they had stops "
                    "working; the members who stay are emailed the new one.",
                ],
            ),
        )
    return _act_on_member(
        request,
        team,
        reader,
        services.remove_member,
        f"{reader.public_name} is no longer a member.",
    )


@confirmed_owner_action
def promote_member(request: AuthenticatedHttpRequest, slug: str, user_id: int) -> HttpResponse:
    team, _ = member_team(request, slug, owner=True)
    reader = _member(team, user_id)
    if request.method == "GET":
        return _ask(
            request,
            team,
            Question(
                title=f"Make {reader.public_name} an owner of {team.name}?",
                button=f"Make {reader.public_name} an owner",
                consequences=[
                    "Owners invite and remove members, change roles, manage join links and "
                    "the calendar address, and may delete the team.",
                    "Only they can give up the role, by leaving the team.",
                ],
            ),
        )
    return _act_on_member(
        request, team, reader, services.promote, f"{reader.public_name} is now an owner."
    )


class MemberAction(Protocol):
    def __call__(self, *, team: Team, by: User, user: User) -> object: ...


def _act_on_member(
    request: AuthenticatedHttpRequest, team: Team, reader: User, action: MemberAction, done: str
) -> HttpResponse:
    """Apply a confirmed owner action to a member, then go back to the members page."""
    try:
        action(team=team, by=request.user, user=reader)
    except services.TeamError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, done)
    return redirect("teams:members", slug=team.slug)


@confirmed_action
def leave(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    team, member = member_team(request, slug)
    if request.method == "GET":
        refusal = ""
        if member.is_owner and not services.other_owners(team, request.user):
            refusal = (
                "You are the team's last owner, so you cannot leave. "
                "Make another member an owner first, or delete the team."
            )
        return _ask(
            request,
            team,
            Question(
                title=f"Leave {team.name}?",
                button=f"Leave {team.name}",
                consequences=[
                    "You no longer see the team's notes, sessions or reading.",
                    "Your notes shared with the team stay shared until you make them private.",
                    "To come back you need a new invitation or join link.",
                ],
                refusal=refusal,
            ),
        )
    try:
        services.leave(team=team, user=request.user)
    except services.TeamError as error:
        messages.error(request, str(error))
        return redirect(team)
    messages.success(request, f"You have left {team.name}.")
    return redirect("teams:list")


@confirmed_owner_action
def rotate_calendar(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    team, _ = member_team(request, slug, owner=True)
    if request.method == "GET":
        return _ask(
            request,
            team,
            Question(
                title=f"Give the calendar of {team.name} a new secret address?",
                button="Give the calendar a new address",
                consequences=[
                    "The current address stops working at once: calendar apps subscribed to it "
                    "no longer update.",
                    "Every member is emailed the new address to subscribe again.",
                ],
            ),
        )
    services.rotate_calendar_token(team=team, by=request.user)
    messages.success(
        request,
        "The calendar has a new address. The old one no longer works; "
        "every member is emailed the new one.",
    )
    return redirect(_settings_url(team, "calendar"))


@confirmed_owner_action
def revoke_join_link(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    team, _ = member_team(request, slug, owner=True)
    link = get_object_or_404(JoinLink, team=team, pk=pk, revoked=False)
    if request.method == "GET":
        return _ask(
            request,
            team,
            Question(
                title="Revoke this join link?",
                button="Revoke the join link",
                consequences=[
                    f"Nobody else can join {team.name} with it; it was used {link.uses} times.",
                    "Members who joined with it stay members.",
                ],
            ),
        )
    services.revoke_join_link(link=link, by=request.user)
    messages.success(request, "The join link is revoked: it no longer lets anyone in.")
    return redirect(_settings_url(team, "links"))


@confirmed_owner_action
def remove_domain(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    team, _ = member_team(request, slug, owner=True)
    row = get_object_or_404(TeamDomain, team=team, pk=pk, revoked_at__isnull=True)
    if request.method == "GET":
        return _ask(
            request,
            team,
            Question(
                title=f"Stop readers at {row.domain} joining by themselves?",
                button=f"Remove {row.domain}",
                consequences=[
                    "Readers already in the team stay members.",
                    "Adding the domain again needs its proof again.",
                ],
            ),
        )
    try:
        domains.remove_domain(row=row, by=request.user)
    except services.TeamError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, f"Readers at {row.domain} no longer join by themselves.")
    return redirect(_settings_url(team, "domains"))


@confirmed_owner_action
def delete_team(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    team, _ = member_team(request, slug, owner=True)
    if request.method == "GET":
        return _ask(
            request,
            team,
            Question(
                title=f"Delete {team.name}?",
                button=f"Delete {team.name} for everyone",
                consequences=[
                    "Notes shared with the team become private to their authors.",
                    "Its sessions, invitations, join links and calendar go, and cannot be "
                    "brought back.",
                    "Every member is emailed that the team was deleted.",
                ],
            ),
        )
    name = team.name
    services.delete_team(team=team, by=request.user)
    messages.success(request, f"{name} is deleted; its members are told by email.")
    return redirect("teams:list")
