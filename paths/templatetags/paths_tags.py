""" "Add to path…" for the site's pages: the reader's editable paths, read once per request
whatever the number of sources on the page."""

from __future__ import annotations

from typing import Any

from django import template
from django.db.models import Prefetch

from catalog.querysets import private_audience

from ..models import Path, PathSection
from ..team_only import PRIVATE, keeps_inside_team

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
            .only("pk", "key", "title", "updated", "team_id", "visibility")
            .prefetch_related(Prefetch("sections", queryset=sections))
            .order_by("-updated", "-pk")[:SHOWN_PATHS]
        )
    setattr(request, _CACHE_ATTRIBUTE, paths)
    return paths


def eligible_paths(request: Any, source: Any, owner_team: int | None = None) -> list[Path]:
    """The reader's editable paths `source` may join: all of them for a catalog source; for a
    team-only one, its team's paths seen by the team alone (paths.team_only). `owner_team`
    spares the query that asks which team keeps it, where the page knows already."""
    paths = editable_paths(request)
    if source.status != PRIVATE or not paths:
        return paths
    teams = {owner_team} if owner_team else private_audience(source) or set()
    return [path for path in paths if path.team_id in teams and keeps_inside_team(path)]


@register.inclusion_tag("paths/includes/add_to_path.html", takes_context=True)
def add_to_path(context: template.Context, source: Any) -> dict[str, Any]:
    request = context.get("request")
    signed_in = bool(request and request.user.is_authenticated)
    return {
        "source": source,
        "signed_in": signed_in,
        "team_only": source.status == PRIVATE,
        "paths": eligible_paths(request, source) if signed_in else [],
        "csrf_token": context.get("csrf_token"),
    }


@register.inclusion_tag("paths/includes/add_to_path_button.html", takes_context=True)
def add_to_path_button(
    context: template.Context, source: Any, owner_team: int | None = None
) -> dict[str, Any]:
    """A card's small "Add to path…" button: it posts the source, and the reader picks the path
    on the next page. Shown to readers with a path they may edit that the source may join."""
    request = context.get("request")
    signed_in = bool(request and request.user.is_authenticated)
    return {
        "source": source,
        "show": signed_in and bool(eligible_paths(request, source, owner_team)),
        "csrf_token": context.get("csrf_token"),
    }
