""" "Add to path…" from a source's page: the reader picks one of the paths they may edit (and
its section) and the source joins its end."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from accounts.requests import AuthenticatedHttpRequest
from catalog.models import Source
from readinglist.views import login_required_htmx

from ..models import Path, PathSection
from ..services import add_step


def _chosen(request: AuthenticatedHttpRequest) -> tuple[Path | None, PathSection | None]:
    """The path (and section) the `to` field names: "<key>" or "<key>:<section id>"."""
    key, _, section_id = request.POST.get("to", "").partition(":")
    path = Path.objects.editable_by(request.user).filter(key=key).first() if key else None
    if path is None:
        return None, None
    section = None
    if section_id.isdigit():
        section = PathSection.objects.filter(path=path, pk=int(section_id)).first()
    return path, section


@login_required_htmx
@require_POST
def add_source(request: AuthenticatedHttpRequest) -> HttpResponse:
    # A team-only source is found by its team's members only: to anyone else it does not exist.
    source = (
        Source.all_objects.visible_to(request.user)
        .filter(status__in=[Source.Status.PUBLISHED, Source.Status.PRIVATE])
        .filter(slug=request.POST.get("source", ""))
        .first()
    )
    if source is None:
        raise Http404("That source is not in the catalog.")
    if not request.POST.get("to"):
        # From a source card: no path chosen yet, so the reader chooses on a page of its own.
        return render(request, "paths/add_source.html", {"source": source})
    path, section = _chosen(request)
    if path is None:
        messages.error(request, "Choose one of your paths to add it to.")
        return redirect(f"{source.get_absolute_url()}#add-to-path")
    try:
        step = add_step(path, request.user, source, section=section)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect(f"{source.get_absolute_url()}#add-to-path")
    messages.success(request, f"Added “{source.title}” to “{path.title}”.")
    return redirect(f"{path.get_absolute_url()}#step-{step.pk}")
