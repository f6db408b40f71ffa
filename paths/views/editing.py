"""Changing a path: its steps (add, remove, move, note, section), its sections, its details, its
editors, and deleting it. Only `Path.objects.editable_by(reader)` exists here; any other path is
404. Every form posts and redirects back to the path page; an HTMX request gets the re-rendered
steps instead and keeps its URL."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from accounts.requests import AuthenticatedHttpRequest
from readinglist.views import login_required_htmx
from teams.models import Membership

from ..changes import (
    delete_path,
    delete_section,
    move_to_section,
    rename_section,
    section_choices,
    set_editors,
    set_note,
    update_details,
)
from ..forms import AddStepForm, EditorsForm, NoteForm, PathDetailsForm, SectionForm
from ..models import Path, PathStep
from ..services import add_section, add_step, move_step, move_step_to, remove_step
from ..team_only import step_pool
from .pages import DETAIL_TEMPLATE, detail_context


def editable_path(request: AuthenticatedHttpRequest, key: str) -> Path:
    path = (
        Path.objects.editable_by(request.user)
        .select_related("team", "user")
        .filter(key=key)
        .first()
    )
    if path is None:
        raise Http404("No such path.")
    return path


def _first_error(error: ValidationError) -> str:
    return " ".join(error.messages)


def back_to_steps(
    request: AuthenticatedHttpRequest,
    path: Path,
    anchor: str = "steps",
    add_form: AddStepForm | None = None,
    status: int = 200,
) -> HttpResponse:
    """The path page again: the steps' partial for HTMX, otherwise a redirect (or, with a form
    that holds what the reader typed, the page itself)."""
    if request.htmx or add_form is not None:
        template = f"{DETAIL_TEMPLATE}#steps" if request.htmx else DETAIL_TEMPLATE
        context = detail_context(path, editable=True, add_form=add_form)
        if request.htmx:
            # The layout that shows messages is not swapped in: the steps show them. htmx swaps
            # only a success, so a form with its errors answers 200 there.
            context["step_messages"] = list(messages.get_messages(request))
            status = 200
        return render(request, template, context, status=status)
    return HttpResponseRedirect(f"{path.get_absolute_url()}#{anchor}")


@login_required_htmx
@require_POST
def add_step_view(request: AuthenticatedHttpRequest, key: str) -> HttpResponse:
    path = editable_path(request, key)
    form = AddStepForm(
        request.POST, sections=section_choices(path), pool=step_pool(path, request.user)
    )
    if form.is_valid():
        source = form.cleaned_data["source"]
        try:
            step = add_step(
                path,
                request.user,
                source,
                section=form.cleaned_data["section"],
                note=form.cleaned_data["note"],
            )
        except ValidationError as error:
            form.add_error("source", error)
        else:
            messages.success(request, f"Added “{source.title}”.")
            return back_to_steps(request, path, f"step-{step.pk}")
    return back_to_steps(request, path, add_form=form, status=400)


@login_required_htmx
@require_POST
def steps_action(request: AuthenticatedHttpRequest, key: str) -> HttpResponse:
    """The buttons beside each step (one form around the steps): up, down or remove, named by
    the button, the step by its value. Each applies to the path as it is now, so a stale page
    moves the step from where it is, and a step already removed stays removed."""
    path = editable_path(request, key)
    action = next((name for name in ("up", "down", "remove") if name in request.POST), "")
    step = request.POST.get(action, "")
    if not step.isdigit():
        return HttpResponse("Choose a step to move up, down or remove.", status=400)
    if action == "remove":
        remove_step(path, request.user, int(step))
        messages.success(request, "Removed the step.")
        return back_to_steps(request, path)
    if not move_step(path, request.user, int(step), -1 if action == "up" else 1):
        messages.info(request, "That step is already at the end of the path.")
    return back_to_steps(request, path, f"step-{step}")


@login_required_htmx
@require_POST
def move_to(request: AuthenticatedHttpRequest, key: str, step: int) -> HttpResponse:
    """Drag and drop, or the keyboard: the step's new place along the whole path (1-based)."""
    path = editable_path(request, key)
    try:
        place = int(request.POST.get("place", ""))
    except ValueError:
        return HttpResponse("Give the step's new place as a number.", status=400)
    move_step_to(path, request.user, step, place - 1)
    return back_to_steps(request, path, f"step-{step}")


@login_required_htmx
@require_http_methods(["GET", "POST"])
def step_edit(request: AuthenticatedHttpRequest, key: str, step: int) -> HttpResponse:
    """A step's note and its section, on a page of their own (the path page stays light)."""
    path = editable_path(request, key)
    row = PathStep.objects.select_related("source", "section").filter(path=path, pk=step).first()
    if row is None:
        raise Http404("No such step.")
    sections = section_choices(path)
    form = NoteForm(request.POST or None, initial={"note": row.note})
    if request.method == "POST" and form.is_valid():
        set_note(path, request.user, row.pk, form.cleaned_data["note"])
        section_id = request.POST.get("section", "")
        if section_id.isdigit() and int(section_id) != row.section_id:
            try:
                move_to_section(path, request.user, row.pk, int(section_id))
            except ValidationError as error:
                messages.error(request, _first_error(error))
        messages.success(request, f"Saved “{row.source.title}”.")
        return redirect(f"{path.get_absolute_url()}#step-{row.pk}")
    context = {"path": path, "step": row, "form": form, "sections": sections}
    return render(request, "paths/step_edit.html", context, status=400 if form.errors else 200)


@login_required_htmx
@require_http_methods(["GET", "POST"])
def edit(request: AuthenticatedHttpRequest, key: str) -> HttpResponse:
    path = editable_path(request, key)
    form = PathDetailsForm(request.POST or None, path=path)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            update_details(
                path,
                request.user,
                title=data["title"],
                description=data["description"],
                visibility=data["visibility"],
            )
        except ValidationError as error:
            form.add_error("visibility", error)
        else:
            messages.success(request, "Saved the path's details.")
            return redirect(path)
    return _edit_page(request, path, form=form, status=400 if form.errors else 200)


def _owns_team(request: AuthenticatedHttpRequest, path: Path) -> bool:
    return bool(
        path.team_id
        and Membership.objects.filter(
            team=path.team, user=request.user, role=Membership.Role.OWNER
        ).exists()
    )


def _edit_page(
    request: AuthenticatedHttpRequest,
    path: Path,
    *,
    form: PathDetailsForm | None = None,
    editors_form: EditorsForm | None = None,
    section_form: SectionForm | None = None,
    status: int = 200,
) -> HttpResponse:
    owner = _owns_team(request, path)
    if owner and editors_form is None:
        editors_form = EditorsForm(path=path)
    context = {
        "path": path,
        "form": form or PathDetailsForm(path=path),
        "editors_form": editors_form if owner else None,
        "section_form": section_form or SectionForm(prefix="section"),
        "sections": section_choices(path),
        "may_delete": not path.team_id or path.user_id == request.user.pk or owner,
    }
    return render(request, "paths/edit.html", context, status=status)


@login_required_htmx
@require_POST
def editors(request: AuthenticatedHttpRequest, key: str) -> HttpResponse:
    path = editable_path(request, key)
    if not _owns_team(request, path):
        raise Http404("Only the team's owners choose its editors.")
    form = EditorsForm(request.POST, path=path)
    if not form.is_valid():
        return _edit_page(request, path, editors_form=form, status=400)
    set_editors(path, request.user, form.cleaned_data["editors"])
    messages.success(request, "Saved who may edit the path.")
    return redirect(reverse("paths:edit", args=[path.key]) + "#editors")


@login_required_htmx
@require_POST
def section_add(request: AuthenticatedHttpRequest, key: str) -> HttpResponse:
    path = editable_path(request, key)
    form = SectionForm(request.POST, prefix="section")
    if form.is_valid():
        try:
            add_section(path, request.user, form.cleaned_data["title"])
        except ValidationError as error:
            form.add_error("title", error)
    if form.errors:
        return _edit_page(request, path, section_form=form, status=400)
    messages.success(request, "Added the section.")
    return redirect(reverse("paths:edit", args=[path.key]) + "#sections")


@login_required_htmx
@require_POST
def section_action(request: AuthenticatedHttpRequest, key: str, section: int) -> HttpResponse:
    """Rename or delete a section. Its steps are never lost: they join the section before it."""
    path = editable_path(request, key)
    try:
        if request.POST.get("action") == "delete":
            moved = delete_section(path, request.user, section)
            messages.success(
                request,
                f"Deleted the section; its {moved} step{'s' if moved != 1 else ''} joined "
                "the section beside it."
                if moved
                else "Deleted the section.",
            )
        else:
            form = SectionForm(request.POST)
            if not form.is_valid():
                return _edit_page(request, path, section_form=form, status=400)
            rename_section(path, request.user, section, form.cleaned_data["title"])
            messages.success(request, "Renamed the section.")
    except ValidationError as error:
        messages.error(request, _first_error(error))
    return redirect(reverse("paths:edit", args=[path.key]) + "#sections")


@login_required_htmx
@require_http_methods(["GET", "POST"])
def delete(request: AuthenticatedHttpRequest, key: str) -> HttpResponse:
    """A team's path is deleted by the team's owners or the member who started it; the editors
    the owners allow change it but do not throw it away."""
    path = editable_path(request, key)
    if path.team_id and path.user_id != request.user.pk and not _owns_team(request, path):
        raise Http404("Only the team's owners delete its paths.")
    if request.method == "POST":
        title = path.title
        delete_path(path)
        messages.success(request, f"Deleted the path “{title}”.")
        return redirect("paths:index")
    return render(request, "paths/delete.html", {"path": path})
