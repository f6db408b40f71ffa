"""Paths' state on other apps' pages: the follow control, My library's followed paths and the
team page's lines of progress. Library and team templates load this library (a template seam),
so neither app imports paths."""

from __future__ import annotations

from typing import Any

from django import template
from django.db.models import Q
from django.http import HttpRequest

from teams.models import Membership, Team

from ..models import Path, PathFollow
from ..progress import reader_progress, team_progress

register = template.Library()


def follow_state(request: HttpRequest | None, path: Path) -> dict[str, Any]:
    """Whether the reader follows `path`, and the teams they own with whether each does (two
    queries; none for a visitor)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"follow": {"following": False, "teams": []}}
    rows = PathFollow.objects.filter(path=path).filter(
        Q(user=user) | Q(team__memberships__user=user, team__memberships__role="owner")
    )
    followers = set(rows.values_list("user_id", "team_id"))
    owned = [
        membership.team
        for membership in Membership.objects.filter(user=user, role="owner")
        .select_related("team")
        .order_by("team__name")
    ]
    teams = [
        {
            "team": team,
            "following": (None, team.pk) in followers,
            "may_follow": path.team_id == team.pk or path.visibility in {"public", "unlisted"},
        }
        for team in owned
    ]
    return {"follow": {"following": (user.pk, None) in followers, "teams": teams}}


@register.simple_tag(takes_context=True)
def path_follow_state(context: template.Context, path: Path) -> dict[str, Any]:
    """`{% path_follow_state path as follow %}`: what the follow control shows."""
    return follow_state(context.get("request"), path)["follow"]


@register.inclusion_tag("paths/includes/library_paths.html", takes_context=True)
def followed_paths(context: template.Context) -> dict[str, Any]:
    """My library's "Paths you follow": each path one line (two queries at any count)."""
    request = context.get("request")
    user = getattr(request, "user", None)
    lines = reader_progress(user) if user is not None and user.is_authenticated else []
    return {"lines": lines, "request": request}


@register.inclusion_tag("paths/includes/team_paths.html", takes_context=True)
def team_paths(context: template.Context, team: Team, owner: bool = False) -> dict[str, Any]:
    """The team page's paths, each one line: the team's reads, where members stall, the next
    session, and a session planned from the next steps."""
    return {
        "team": team,
        "owner": owner,
        "lines": team_progress(team),
        "request": context.get("request"),
        "csrf_token": context.get("csrf_token"),
    }
