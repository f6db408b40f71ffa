"""A path drafted from a described goal: the draft shown to edit (each step kept or not, each
with why it was picked), then saved as a new path with only the kept steps, in order."""

from dataclasses import dataclass, field

from django.contrib import messages
from django.db import transaction
from django.http import HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods
from django.views.decorators.vary import vary_on_headers

from accounts.requests import AuthenticatedHttpRequest
from catalog.models import Source
from readinglist.views import login_required_htmx

from ..drafting import draft_path
from ..filling import PlannedSection, fill_path
from ..models import ChangeAction
from ..ownership import TitledOwnerForm, title_from
from ..services import create_path, record

GOAL_MAX = 1000
# Draft steps a form may post: a draft has at most its limit, a tampered form no more than this.
MAX_DRAFT_STEPS = 100


@dataclass
class ShownStep:
    source: Source
    reason: str
    kept: bool = True


@dataclass
class ShownSection:
    title: str
    steps: list[ShownStep] = field(default_factory=list)


@login_required_htmx
@require_http_methods(["GET", "POST"])
@vary_on_headers("HX-Request")
def draft(request: AuthenticatedHttpRequest) -> HttpResponse:
    if request.method == "POST":
        return _save(request)
    goal = request.GET.get("goal", "")[:GOAL_MAX]
    context: dict[str, object] = {"goal": goal, "asked": "goal" in request.GET}
    if "goal" in request.GET:
        drafted = draft_path(goal)
        context["notice"] = drafted.notice
        context["sections"] = [
            ShownSection(s.title, [ShownStep(step.source, step.reason) for step in s.steps])
            for s in drafted.sections
        ]
        context["form"] = TitledOwnerForm(
            user=request.user, initial={"title": title_from(goal) or "My path"}
        )
    template = "paths/draft.html#draft" if request.htmx else "paths/draft.html"
    return render(request, template, context)


def _posted_sections(data: QueryDict) -> tuple[list[ShownSection], str | None]:
    """The draft as the form posted it, or why it cannot be saved. Every source must be a
    published catalog source: a tampered id is refused, never saved."""
    titles = data.getlist("section")[:MAX_DRAFT_STEPS]
    ids = [value for value in data.getlist("step")[:MAX_DRAFT_STEPS]]
    if not all(value.isdigit() for value in ids):
        return [], "The draft was changed on its way here. Draft it again."
    kept = set(data.getlist("keep"))
    published = Source.objects.published().in_bulk([int(value) for value in ids])
    sections = [ShownSection(title[:200]) for title in titles] or [ShownSection("")]
    for value in ids:
        source = published.get(int(value))
        if source is None:
            return [], "One of the steps is not a published catalog source. Draft it again."
        index = data.get(f"section_of_{value}", "0")
        where = int(index) if index.isdigit() and int(index) < len(sections) else 0
        reason = data.get(f"reason_{value}", "")[:400]
        sections[where].steps.append(ShownStep(source, reason, value in kept))
    if not (set(kept) <= set(ids)):
        return [], "One of the kept steps is not in the draft. Draft it again."
    return sections, None


def _save(request: AuthenticatedHttpRequest) -> HttpResponse:
    goal = request.POST.get("goal", "")[:GOAL_MAX]
    form = TitledOwnerForm(request.POST, user=request.user)
    sections, problem = _posted_sections(request.POST)
    kept = [(section, [s for s in section.steps if s.kept]) for section in sections]
    if problem is None and not any(steps for _, steps in kept):
        problem = "Keep at least one step: tick the steps to save."
    if problem or not form.is_valid():
        context = {"goal": goal, "asked": True, "sections": sections, "form": form}
        context["problem"] = problem
        return render(request, "paths/draft.html", context, status=400 if problem else 200)
    plan = [
        PlannedSection(section.title, [(s.source.pk, "") for s in steps])
        for section, steps in kept
        if steps
    ]
    with transaction.atomic():
        path = create_path(
            request.user,
            form.cleaned_data["title"],
            team=form.team,
            visibility=form.path_visibility,
            section_titles=(),
        )
        filled = fill_path(path, request.user, plan)
        record(path, request.user, ChangeAction.ADDED, f"Drafted from a goal: {goal}")
    messages.success(
        request, f"Saved your path of {filled.added} step{'s' if filled.added != 1 else ''}."
    )
    return redirect(path.get_absolute_url())
