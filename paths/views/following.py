"""Following a path: a reader for My library, a team (by its owner) for the team's page.

Only a path the reader may see can be followed, anything else is 404 whatever the reason; a
team follows only what its members may all see: its own paths, public and unlisted ones."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_POST

from accounts.requests import AuthenticatedHttpRequest
from library.team_progress import Step, fill_counts, fill_step_details
from library.views.bookmarks import safe_next
from readinglist.views import login_required_htmx
from teams.access import member_team

from ..models import Path, PathFollow
from ..progress import SESSION_STEPS, team_paths
from ..templatetags.path_follows import follow_state

FOLLOW_PARTIAL = "paths/includes/follow_form.html#follow"


def _visible_path(request: AuthenticatedHttpRequest, key: str) -> Path:
    return get_object_or_404(Path.objects.visible_to(request.user), key=key)


def _answer(request: AuthenticatedHttpRequest, path: Path) -> HttpResponse:
    """htmx gets the re-rendered control; without JavaScript, back to the page it was sent from."""
    if getattr(request, "htmx", False):
        return render(request, FOLLOW_PARTIAL, {"path": path, **follow_state(request, path)})
    return redirect(safe_next(request, request.POST.get("next"), path.get_absolute_url()))


@require_POST
@login_required_htmx
def follow(request: AuthenticatedHttpRequest, key: str) -> HttpResponse:
    path = _visible_path(request, key)
    # Two clicks at once keep one row.
    PathFollow.objects.get_or_create(path=path, user=request.user)
    if not getattr(request, "htmx", False):
        messages.success(request, f"You follow “{path.title}”: your progress shows in My library.")
    return _answer(request, path)


@require_POST
@login_required_htmx
def unfollow(request: AuthenticatedHttpRequest, key: str) -> HttpResponse:
    path = _visible_path(request, key)
    PathFollow.objects.filter(path=path, user=request.user).delete()
    if not getattr(request, "htmx", False):
        messages.success(request, f"You no longer follow “{path.title}”; your reading is kept.")
    return _answer(request, path)


def team_may_follow(path: Path, team_id: int) -> bool:
    """A team follows only what every member may see: its own path, or a shared one."""
    return path.team_id == team_id or path.visibility in {"public", "unlisted"}


@require_POST
@login_required_htmx
def team_follow(request: AuthenticatedHttpRequest, key: str) -> HttpResponse:
    path = _visible_path(request, key)
    team, _ = member_team(request, request.POST.get("team", ""), owner=True)
    if not team_may_follow(path, team.pk):
        messages.error(
            request,
            f"{team.name} cannot follow “{path.title}”: not every member may see it. "
            "Make it unlisted or public first.",
        )
        return redirect(path.get_absolute_url())
    PathFollow.objects.get_or_create(path=path, team=team)
    messages.success(request, f"{team.name} follows “{path.title}”: its progress shows there.")
    return _answer(request, path)


@require_POST
@login_required_htmx
def team_unfollow(request: AuthenticatedHttpRequest, key: str) -> HttpResponse:
    # A team's owner may stop following a path they can no longer see themselves.
    team, _ = member_team(request, request.POST.get("team", ""), owner=True)
    followed = PathFollow.objects.filter(path__key=key, team=team).select_related("path").first()
    if followed is None:
        raise Http404("No such path.")
    followed.delete()
    messages.success(request, f"{team.name} no longer follows “{followed.path.title}”.")
    return redirect(safe_next(request, request.POST.get("next"), team.get_absolute_url()))


STEPS_PER_PAGE = 25


@login_required
@require_GET
def team_progress(request: AuthenticatedHttpRequest, key: str, slug: str) -> HttpResponse:
    """A followed path's member-by-step table, a page of steps at a time: the team page shows
    the path as one line and links here."""
    team, member = member_team(request, slug)
    path = get_object_or_404(team_paths(team), key=key)
    steps = [
        Step(step.source_id, step.source.title, step.source.get_absolute_url())
        for step in path.steps.select_related("source")
        .only("source_id", "position", "source__slug", "source__title")
        .order_by("position", "pk")
    ]
    fill_counts(team, steps)
    members = team.memberships.count()
    page = Paginator(steps, STEPS_PER_PAGE).get_page(request.GET.get("page"))
    fill_step_details(team, list(page.object_list), with_names=member.is_owner)
    unread = [step.source_id for step in steps if step.finished * 2 <= members]
    context = {
        "team": team,
        "title": path.title,
        "page": page,
        "members": members,
        "stall": next((step for step in steps if step.source_id in unread[:1]), None),
        "next_source_ids": unread[:SESSION_STEPS] if member.is_owner else [],
        "caption": f"Progress of {team.name} along {path.title}",
    }
    return render(request, "teams/progress_detail.html", context)
