"""Forking a path or a curated list, taking what its origin changed since, and proposing a path
to the catalog's maintainers."""

from typing import cast

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST

from accounts.requests import AuthenticatedHttpRequest
from catalog.models import ReadingList
from readinglist.views import login_required_htmx

from ..filling import team_only_message
from ..forking import (
    Kind,
    Origin,
    fork_list,
    fork_path,
    origin_of,
    take_all,
    take_change,
    upstream_changes,
)
from ..models import ChangeAction, Path
from ..ownership import OwnerForm
from ..services import record
from ..team_only import team_only_titles

KINDS = ("added", "removed", "moved")


@login_required_htmx
@require_http_methods(["GET", "POST"])
def fork(request: AuthenticatedHttpRequest, key: str) -> HttpResponse:
    """GET: choose the fork's owner and visibility; POST: fork (yours, private, by default)."""
    origin = get_object_or_404(Path.objects.visible_to(request.user), key=key)
    form = OwnerForm(request.POST if request.method == "POST" else None, user=request.user)
    if request.method == "POST" and form.is_valid():
        forked = fork_path(origin, request.user, team=form.team, visibility=form.path_visibility)
        messages.success(request, f"You forked “{origin.title}”. This copy is yours to change.")
        if forked.team_only_left_out:
            messages.info(request, team_only_message(forked.team_only_left_out) + ".")
        return redirect(forked.path.get_absolute_url())
    context = {"form": form, "origin_title": origin.title, "origin_url": origin.get_absolute_url()}
    context["action"] = request.path
    # The origin's readers are its team's members when it holds team-only steps.
    context["team_only"] = len(team_only_titles(origin))
    return render(request, "paths/fork_confirm.html", context)


@login_required_htmx
@require_http_methods(["GET", "POST"])
def fork_list_view(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    reading_list = get_object_or_404(ReadingList, slug=slug)
    form = OwnerForm(request.POST if request.method == "POST" else None, user=request.user)
    if request.method == "POST" and form.is_valid():
        copy = fork_list(
            reading_list, request.user, team=form.team, visibility=form.path_visibility
        )
        messages.success(
            request, f"You forked “{reading_list.title}”. This copy is yours to change."
        )
        return redirect(copy.get_absolute_url())
    context = {
        "form": form,
        "origin_title": reading_list.title,
        "origin_url": reading_list.get_absolute_url(),
        "action": request.path,
    }
    return render(request, "paths/fork_confirm.html", context)


@login_required_htmx
@require_http_methods(["GET", "POST"])
def upstream(request: AuthenticatedHttpRequest, key: str) -> HttpResponse:
    """What the fork's origin changed since it was forked, each change one POST to take."""
    fork_ = get_object_or_404(
        Path.objects.visible_to(request.user).select_related("forked_from_list"), key=key
    )
    origin = origin_of(fork_, request.user)
    can_edit = Path.objects.editable_by(request.user).filter(pk=fork_.pk).exists()
    if request.method == "POST":
        if not can_edit:
            raise Http404("No path here.")
        if origin is None or not origin.visible:
            messages.error(request, "The origin of this path is no longer visible to you.")
            return redirect(request.path)
        _take(request, fork_, origin)
        return redirect(request.path)
    changes = upstream_changes(fork_, origin, request.user) if origin and origin.visible else []
    context = {"path": fork_, "origin": origin, "changes": changes, "can_edit": can_edit}
    return render(request, "paths/fork_upstream.html", context)


def _take(request: AuthenticatedHttpRequest, fork_: Path, origin: Origin) -> None:
    take = request.POST.get("take", "")
    if take == "all":
        count = take_all(fork_, request.user, origin)
        messages.success(
            request, f"Took {count} change{'s' if count != 1 else ''} from its origin."
        )
        return
    kind, _, source_id = take.partition(":")
    if kind not in KINDS or not source_id.isdigit():
        messages.error(request, "Choose a change to take.")
        return
    try:
        done = take_change(fork_, request.user, origin, cast(Kind, kind), int(source_id))
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, done + ".")


@login_required_htmx
@require_POST
def propose(request: AuthenticatedHttpRequest, key: str) -> HttpResponse:
    """Send a shared path to the maintainers, who may adopt it as a curated list."""
    path = get_object_or_404(Path.objects.editable_by(request.user), key=key)
    if path.visibility not in ("public", "unlisted"):
        messages.error(
            request,
            "Only a public or unlisted path can be proposed: the maintainers must be able to "
            "read it. Change who can see it first.",
        )
        return redirect(path.get_absolute_url())
    if path.proposed_at is None:
        path.proposed_at = timezone.now()
        path.save(update_fields=["proposed_at"])
        record(path, request.user, ChangeAction.VISIBILITY, "Proposed to the catalog's maintainers")
    messages.success(request, "Proposed to the maintainers. They may adopt it as a curated list.")
    return redirect(path.get_absolute_url())
