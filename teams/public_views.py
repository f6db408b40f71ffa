"""Ways into a team (invitations, join links) and the calendar feed calendar apps fetch."""

from allauth.account.adapter import get_adapter
from allauth.account.forms import SignupForm
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from accounts.models import User
from accounts.requests import AuthenticatedHttpRequest
from readinglist.requests import HtmxHttpRequest

from . import joining, services
from .calendar import team_calendar
from .emails import reader_of_reminders_off_token
from .models import JoinLink, Team
from .reminder_settings import turn_reminders_off
from .signals import INVITATION_SESSION_KEY


@require_http_methods(["GET", "POST"])
def invitation(request: HtmxHttpRequest, token: str) -> HttpResponse:
    found = services.find_invitation(token)
    if found is None:
        raise Http404("No invitation here.")
    if not request.user.is_authenticated:
        # Kept for sign-up: when sign-up is by invitation only, this is what opens it.
        request.session[INVITATION_SESSION_KEY] = token
        problem = services.invitation_problem(found)
        email = "" if found.any_email else found.email
        return render(
            request,
            "teams/invitation.html",
            {"invitation": found, "problem": problem, "next": request.path}
            | _newcomer_context(request, email=email),
            status=410 if problem else 200,
        )
    already = services.membership(found.team, request.user)
    if already:
        return redirect(found.team)
    problem = services.invitation_problem(found, request.user)
    if request.method == "POST" and not problem:
        try:
            services.accept_invitation(invitation=found, user=request.user)
        except services.EmailNotVerified:
            return joining.ask_to_verify(request, kind="invitation", token=token, team=found.team)
        except services.TeamError as error:  # used by someone else a moment ago
            problem = str(error)
        else:
            request.session.pop(INVITATION_SESSION_KEY, None)
            messages.success(request, f"Welcome to {found.team.name}.")
            return redirect(found.team)
    return render(
        request,
        "teams/invitation.html",
        {"invitation": found, "problem": problem},
        status=409 if problem else 200,
    )


@require_http_methods(["GET", "POST"])
def join(request: HtmxHttpRequest, token: str) -> HttpResponse:
    link = get_object_or_404(JoinLink.objects.select_related("team"), token=token)
    if not request.user.is_authenticated:
        return _join_as_newcomer(request, link, token)
    if services.membership(link.team, request.user):
        return redirect(link.team)
    problem = link.problem
    if request.method == "POST" and not problem:
        try:
            services.join_by_link(link=link, user=request.user)
        except services.EmailNotVerified:
            return joining.ask_to_verify(request, kind="link", token=token, team=link.team)
        except services.TeamError as error:
            problem = str(error)
        else:
            messages.success(request, f"Welcome to {link.team.name}.")
            return redirect(link.team)
    return render(
        request,
        "teams/join.html",
        {"link": link, "team": link.team, "problem": problem},
        status=410 if problem else 200,
    )


def _newcomer_context(request: HttpRequest, *, email: str = "") -> dict[str, SignupForm | None]:
    """A sign-up form on the page that names the team, when this site lets the visitor sign up."""
    if not get_adapter(request).is_open_for_signup(request):
        return {"signup_form": None}
    return {"signup_form": SignupForm(initial={"email": email} if email else None)}


def _join_as_newcomer(request: HttpRequest, link: JoinLink, token: str) -> HttpResponse:
    problem = link.problem
    if not problem:
        joining.remember_for_signup(request, kind="link", token=token, team=link.team)
    return render(
        request,
        "teams/join.html",
        {"link": link, "team": link.team, "problem": problem, "next": request.path}
        | _newcomer_context(request),
        status=410 if problem else 200,
    )


@login_required
@require_http_methods(["GET", "POST"])
def verify_to_join(request: AuthenticatedHttpRequest) -> HttpResponse:
    """After sign-up, while the join waits for the reader's address to be verified."""
    team = joining.pending_team(request)
    if team is None or services.membership(team, request.user):
        return redirect(team or "teams:list")
    if request.method == "POST":
        kind, token = joining.pending_kind_and_token(request)
        return joining.ask_to_verify(request, kind=kind, token=token, team=team, resend=True)
    return render(
        request,
        "teams/verify_first.html",
        {"team": team, "email": request.user.email, "resend": True},
    )


@require_GET
def calendar_feed(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    team = get_object_or_404(Team, slug=slug, calendar_token=token)
    response = HttpResponse(team_calendar(team), content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{team.slug}.ics"'
    response["Cache-Control"] = "private, max-age=300"
    return response


@require_http_methods(["GET", "POST"])
def reminders_off(request: HttpRequest, token: str) -> HttpResponse:
    """The one-click way out of reminders from the mail itself: it needs no sign-in, and the
    signed token names the reader. GET asks (mail scanners follow links); POST acts."""
    reader = User.objects.filter(pk=reader_of_reminders_off_token(token) or 0).first()
    if reader is None:
        raise Http404("This link is not valid.")
    done = request.method == "POST"
    if done:
        turn_reminders_off(reader)
    return render(request, "teams/reminders_off.html", {"reader": reader, "done": done})
