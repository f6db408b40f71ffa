"""Planning a team's reading-group sessions."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from accounts.requests import AuthenticatedHttpRequest

from . import services
from .access import member_team, owner_action, readers_time_zone
from .forms import SessionForm
from .models import Session, with_sources
from .session_sources import prefilled, suggest
from .sessions import may_edit, save_session

SESSIONS_PAGE_SIZE = 25


@login_required
@require_GET
def session_detail(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    """A session: when, what to read (with the member's own status), and its discussion."""
    team, member = member_team(request, slug)
    session = get_object_or_404(
        with_sources(Session.objects.select_related("facilitator")), team=team, pk=pk
    )
    with readers_time_zone(request.user):
        return render(
            request,
            "teams/session_detail.html",
            {
                "team": team,
                "member": member,
                "session": session,
                "may_edit": may_edit(session, team, request.user),
            },
        )


@login_required
@require_GET
def session_list(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """Every session of the team, the latest first, a page at a time (the team's page shows
    only the next and the last few)."""
    team, _ = member_team(request, slug)
    sessions = with_sources(team.sessions.select_related("facilitator")).order_by(
        "-starts_at", "-pk"
    )
    page = Paginator(sessions, SESSIONS_PAGE_SIZE).get_page(request.GET.get("page"))
    with readers_time_zone(request.user):
        return render(
            request,
            "teams/session_list.html",
            {"team": team, "page": page, "may_plan": may_edit(None, team, request.user)},
        )


@owner_action  # owners plan; a facilitator edits their own session
@require_http_methods(["GET", "POST"])
def session_form(
    request: AuthenticatedHttpRequest, slug: str, pk: int | None = None
) -> HttpResponse:
    team, _ = member_team(request, slug)
    session = get_object_or_404(Session, team=team, pk=pk) if pk else None
    if not may_edit(session, team, request.user):
        raise Http404("No session here.")
    with readers_time_zone(request.user) as zone:
        # A new session may come prefilled with sources: a path's or list's next steps.
        prefill = prefilled(request.GET.get("sources")) if session is None else []
        form = SessionForm(
            request.POST or None,
            instance=session,
            team=team,
            planner=request.user,
            prefill=prefill,
        )
        if request.method == "POST" and form.is_valid():
            try:
                saved = save_session(form=form, team=team, by=request.user)
            except services.TeamError as error:
                form.add_error(None, str(error))
            else:
                verb = "saved" if session else "planned"
                messages.success(request, f"The session “{saved.title}” is {verb}.")
                return redirect(team)
        return render(
            request,
            "teams/session_form.html",
            {"team": team, "form": form, "session": session, "zone": zone},
            status=400 if request.method == "POST" else 200,
        )


@login_required
@require_GET
def source_suggestions(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """Sources matching what the planner typed, by the same search as /sources/ (for htmx)."""
    # Only the public catalog is searched, so any member may ask.
    team, _ = member_team(request, slug)
    text = request.GET.get("find", "")[:200]
    return render(
        request,
        "teams/session_form.html#suggestions",
        {"team": team, "suggestions": suggest(text), "find": text},
    )
