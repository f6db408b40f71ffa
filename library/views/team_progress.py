"""A followed list's member-by-step table, a page of steps at a time: the team page shows each
list as one line and links here."""

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from accounts.requests import AuthenticatedHttpRequest
from teams.access import member_team

from ..team_progress import fill_step_details, team_progress

# Steps per page: a list of 119 steps is five short pages, not one 8,000 px table.
STEPS_PER_PAGE = 25


@login_required
@require_GET
def list_progress(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    team, member = member_team(request, slug)
    found = team_progress(team, with_names=False, details=False, followed=pk)
    if not found:
        raise Http404("The team follows no such list.")
    progress = found[0]
    page = Paginator(progress.steps, STEPS_PER_PAGE).get_page(request.GET.get("page"))
    fill_step_details(team, list(page.object_list), with_names=member.is_owner)
    title = progress.reading_list.title
    context = {
        "team": team,
        "title": title,
        "page": page,
        "members": progress.members,
        "stall": progress.stall,
        "next_source_ids": progress.next_source_ids if member.is_owner else [],
        "caption": f"Progress of {team.name} along {title}",
    }
    return render(request, "teams/progress_detail.html", context)
