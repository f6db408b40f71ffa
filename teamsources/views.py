"""A team's own sources under /teams/<slug>/sources/: the list and the form that adds one, and
the file, served to members only; editing and deleting one, for the member who added it and the
team's owners. Nobody else learns that any of it exists: 404."""

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.requests import AuthenticatedHttpRequest
from teams.access import member_team, owner_action
from teams.models import Team

from .forms import FromPageForm, TeamSourceForm
from .models import TeamSource
from .removal import attached, delete_team_source
from .services import NoTier, add_team_source, edit_team_source, may_manage
from .uploads import limit_uploads, upload_was_too_large

CONTENT_TYPES = {
    TeamSource.FileType.PDF: "application/pdf",
    TeamSource.FileType.MARKDOWN: "text/markdown; charset=utf-8",
}


# The size limit's upload handler must be in place before the CSRF check reads the body, so
# the check runs inside, on the same request (Django's documented pattern).
@csrf_exempt
@login_required
@require_http_methods(["GET", "POST"])
def team_sources(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    limit_uploads(request)
    return _team_sources(request, slug)


@csrf_protect
def _team_sources(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    team, member = member_team(request, slug)
    status = 200
    if request.method == "POST":
        form = TeamSourceForm(
            request.POST, request.FILES, team=team, too_large=upload_was_too_large(request)
        )
        if form.is_valid():
            try:
                row = add_team_source(
                    team=team, user=request.user, data=form.cleaned_data, extracted=form.extracted
                )
            except NoTier:
                form.add_error(None, "The catalog has no tiers yet: ask a maintainer to load it.")
            else:
                messages.success(request, f"Added “{row.source.title}” for {team.name}.")
                return redirect(row.source)
        status = 400
    else:
        form = TeamSourceForm(team=team)
    rows = TeamSource.objects.filter(team=team).select_related("source", "added_by")
    context = {"team": team, "member": member, "form": form, "rows": rows[:200]}
    return render(request, "teamsources/team_sources.html", context, status=status)


@login_required
@require_GET
def download(request: AuthenticatedHttpRequest, slug: str, pk: int) -> FileResponse:
    team, _ = member_team(request, slug)
    row = get_object_or_404(TeamSource.objects.exclude(file=""), pk=pk, team=team)
    try:
        handle = row.file.open("rb")
    except FileNotFoundError:
        raise Http404("No file here.") from None
    # Always a download, never rendered by the site's origin: a PDF or Markdown file could
    # otherwise carry script the browser would run as the site.
    response = FileResponse(
        handle,
        as_attachment=True,
        filename=row.file_name or f"source.{row.file_type}",
        content_type=CONTENT_TYPES.get(row.file_type, "application/octet-stream"),
    )
    response["X-Content-Type-Options"] = "nosniff"
    response["Cache-Control"] = "private, no-store"
    response["Content-Security-Policy"] = "sandbox; default-src 'none'"
    return response


@login_required
@require_GET
def propose(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    """The catalog's proposal form, filled from the team's source. Only the fields travel: the
    file stays the team's, and nothing is public until a maintainer accepts the proposal."""
    team, _ = member_team(request, slug)
    row = get_object_or_404(TeamSource.objects.select_related("source"), pk=pk, team=team)
    source = row.source
    fields = {
        "title": source.title,
        "url": source.url,
        "kind": source.kind,
        "authors": source.authors,
        "year": source.year or "",
        "summary": source.summary,
    }
    query = urlencode({name: value for name, value in fields.items() if value})
    return redirect(f"{reverse('proposals:propose')}?{query}")


@login_required
@require_POST
def from_page(request: AuthenticatedHttpRequest) -> HttpResponse:
    """A page the catalog lacks becomes one of the reader's team's own sources, then /save/
    opens again with the same passage: it now finds the page the team's and offers the thread.
    The address carries no more than the one that brought the reader to /save/."""
    teams = list(Team.objects.filter(members=request.user).order_by("name", "pk"))
    if not teams:
        raise Http404("No team here.")
    form = FromPageForm(request.POST, teams=teams)
    if form.is_valid() and form.team is not None:
        data = form.cleaned_data
        try:
            row = add_team_source(team=form.team, user=request.user, data=data, extracted=None)
        except NoTier:
            form.add_error(None, "The catalog has no tiers yet: ask a maintainer to load it.")
        else:
            messages.success(request, f"Added “{row.source.title}” for {form.team.name}.")
            passage = {name: data[name] for name in ("quote", "prefix", "suffix") if data[name]}
            query = urlencode({"url": row.source.url, "title": row.source.title, **passage})
            return redirect(f"{reverse('save:save')}?{query}")
    return render(request, "teamsources/from_page.html", {"form": form}, status=400)


def _managed(request: AuthenticatedHttpRequest, slug: str, pk: int) -> TeamSource:
    """The row, if the reader may edit and delete it; 404 otherwise, as for an owner's action
    on a team (teams.access): a member learns no more than an outsider."""
    team, _ = member_team(request, slug)
    row = get_object_or_404(TeamSource.objects.select_related("source", "team"), pk=pk, team=team)
    if not may_manage(row, request.user):
        raise Http404("No source here.")
    return row


# As for adding: the size limit first, then the CSRF check on the same request.
@csrf_exempt
@owner_action
@require_http_methods(["GET", "POST"])
def edit(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    limit_uploads(request)
    return _edit(request, slug, pk)


@csrf_protect
def _edit(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    row = _managed(request, slug, pk)
    status = 200
    if request.method == "POST":
        form = TeamSourceForm(
            request.POST,
            request.FILES,
            team=row.team,
            editing=row,
            too_large=upload_was_too_large(request),
        )
        if form.is_valid():
            edit_team_source(row, data=form.cleaned_data, extracted=form.extracted)
            messages.success(request, f"Saved “{row.source.title}”.")
            return redirect(row.source)
        status = 400
    else:
        form = TeamSourceForm(team=row.team, editing=row)
    context = {"team": row.team, "row": row, "form": form}
    return render(request, "teamsources/edit.html", context, status=status)


@owner_action
@require_http_methods(["GET", "POST"])
def delete(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    """GET counts what goes with the source; only the POST from that page deletes."""
    row = _managed(request, slug, pk)
    if request.method == "POST":
        title, team = row.source.title, row.team
        delete_team_source(row)
        messages.success(request, f"Deleted “{title}” and everything attached to it.")
        return redirect(team)
    context = {"team": row.team, "row": row, "attached": attached(row)}
    return render(request, "teamsources/delete.html", context)
