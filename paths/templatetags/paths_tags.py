""" "Add to path…" for the site's pages: the reader's editable paths, read once per request
whatever the number of sources on the page."""

from __future__ import annotations

from typing import Any

from django import template
from django.db.models import Prefetch

from ..models import Path, PathSection

register = template.Library()

_CACHE_ATTRIBUTE = "_editable_paths"
# A page offers the reader's most recently changed paths; the others are on /paths/.
SHOWN_PATHS = 50


def editable_paths(request: Any) -> list[Path]:
    """The reader's editable paths with their sections: two queries, then kept on the request."""
    cached = getattr(request, _CACHE_ATTRIBUTE, None)
    if cached is not None:
        return cached
    user = getattr(request, "user", None)
    paths: list[Path] = []
    if user is not None and user.is_authenticated:
        sections = PathSection.objects.order_by("position", "pk").only("pk", "path_id", "title")
        paths = list(
            Path.objects.editable_by(user)
            .only("pk", "key", "title", "updated")
            .prefetch_related(Prefetch("sections", queryset=sections))
            .order_by("-updated", "-pk")[:SHOWN_PATHS]
        )
    setattr(request, _CACHE_ATTRIBUTE, paths)
    return paths


@register.inclusion_tag("paths/includes/add_to_path.html", takes_context=True)
def add_to_path(context: template.Context, source: Any) -> dict[str, Any]:
    request = context.get("request")
    signed_in = bool(request and request.user.is_authenticated)
    return {
        "source": source,
        "signed_in": signed_in,
        "paths": editable_paths(request) if signed_in else [],
        "csrf_token": context.get("csrf_token"),
    }


@register.inclusion_tag("paths/includes/add_to_path_button.html", takes_context=True)
def add_to_path_button(context: template.Context, source: Any) -> dict[str, Any]:
    """A card's small "Add to path…" button: it posts the source, and the reader picks the path
    on the next page. Shown to readers with a path they may edit."""
    request = context.get("request")
    signed_in = bool(request and request.user.is_authenticated)
    return {
        "source": source,
        "show": signed_in and bool(editable_paths(request)),
        "csrf_token": context.get("csrf_token"),
    }
