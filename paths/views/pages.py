"""The reader's paths and a path's own page.

Whether a reader may see a path is one queryset (`Path.objects.visible_to`): a path outside it
does not exist for them (404, never 403), whatever its visibility was before they left a team.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.db.models import Count
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from accounts.requests import AuthenticatedHttpRequest
from readinglist.requests import HtmxHttpRequest
from readinglist.views import login_required_htmx

from ..forms import AddStepForm, PathCreateForm
from ..models import Path, PathSection, PathStep
from ..services import create_path
from ..team_only import history_for, shown_summary

HISTORY_SHOWN = 20
DETAIL_TEMPLATE = "paths/detail.html"


@login_required_htmx
@require_GET
def index(request: AuthenticatedHttpRequest) -> HttpResponse:
    return _index_page(request, PathCreateForm(user=request.user))


def _index_page(request: AuthenticatedHttpRequest, form: PathCreateForm) -> HttpResponse:
    paths = (
        Path.objects.of_reader(request.user)
        .select_related("team", "user")
        .annotate(step_count=Count("steps"))
        .order_by("-updated", "-pk")
    )
    return render(request, "paths/index.html", {"paths": paths, "form": form})


@login_required_htmx
@require_POST
def create(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = PathCreateForm(request.POST, user=request.user)
    if not form.is_valid():
        response = _index_page(request, form)
        response.status_code = 400
        return response
    data = form.cleaned_data
    path = create_path(
        request.user,
        data["title"],
        description=data["description"],
        team=data["team"],
        visibility=data["visibility"],
    )
    if path.team_id and not Path.objects.editable_by(request.user).filter(pk=path.pk).exists():
        # A member who starts a team's path may go on editing it; the owners can change that.
        path.editors.add(request.user)
    messages.success(request, f"“{path.title}” is ready: add its first step below.")
    return redirect(path)


def visible_path(request: HtmxHttpRequest, key: str) -> Path:
    path = (
        Path.objects.visible_to(request.user)
        .select_related("team", "user", "forked_from", "forked_from_list")
        .filter(key=key)
        .first()
    )
    if path is None:
        raise Http404("No such path.")
    return path


def can_edit(request: HtmxHttpRequest, path: Path) -> bool:
    return Path.objects.editable_by(request.user).filter(pk=path.pk).exists()


@require_GET
def detail(request: HtmxHttpRequest, key: str) -> HttpResponse:
    path = visible_path(request, key)
    editable = can_edit(request, path)
    return render(request, DETAIL_TEMPLATE, detail_context(path, editable=editable))


def detail_context(
    path: Path, *, editable: bool, add_form: AddStepForm | None = None
) -> dict[str, Any]:
    """The path page's context: its sections with their steps in order, a constant number of
    queries whatever the number of steps."""
    sections = list(PathSection.objects.filter(path=path).order_by("position", "pk"))
    by_section: dict[int, list[PathStep]] = {section.pk: [] for section in sections}
    steps = (
        PathStep.objects.filter(path=path)
        .select_related("source")
        .only(
            "pk",
            "section_id",
            "position",
            "note_html",
            "source__slug",
            "source__title",
            "source__status",
        )
        .order_by("section__position", "section_id", "position", "pk")
    )
    count = 0
    for step in steps:
        count += 1
        step.number = count  # type: ignore[attr-defined]  # the step's place along the path
        by_section.setdefault(step.section_id, []).append(step)
    for section in sections:
        # The section's steps in order, for the template: an attribute the model does not declare.
        section.step_list = by_section.get(section.pk, [])  # type: ignore[attr-defined]
    history = list(history_for(path)[:HISTORY_SHOWN])
    for change in history:
        # The line as this path's readers may read it: an attribute the model does not declare.
        change.shown = shown_summary(change, path)  # type: ignore[attr-defined]
    return {
        "path": path,
        "sections": sections,
        "step_count": count,
        "titled_sections": any(section.title for section in sections) or len(sections) > 1,
        "history": history,
        "editable": editable,
        "add_form": add_form
        if add_form is not None
        else (AddStepForm(sections=sections) if editable else None),
    }
