from typing import Any

from django import template
from django.template import Context
from django.template.context_processors import csrf

from ..forms import TeamSourceForm
from ..models import TeamSource
from ..services import may_manage

register = template.Library()
TEAM_PAGE_SOURCES = 10


@register.inclusion_tag("teamsources/includes/team_block.html", takes_context=True)
def team_sources(context: Context, team: Any) -> dict[str, Any]:
    """The team's own sources and the form that adds one, for its page (the view has checked
    the reader is a member)."""
    rows = list(
        TeamSource.objects.filter(team=team).select_related("source", "added_by")[
            : TEAM_PAGE_SOURCES + 1
        ]
    )
    return {
        "team": team,
        "rows": rows[:TEAM_PAGE_SOURCES],
        "more": len(rows) > TEAM_PAGE_SOURCES,
        "form": TeamSourceForm(team=team),
        # The team page's own membership row: an owner manages every row, a member their own.
        "member": context.get("member"),
        "request": context["request"],
        **csrf(context["request"]),
    }


@register.simple_tag(takes_context=True)
def may_manage_team_source(context: Context, row: TeamSource) -> bool:
    """Whether the reader may edit and delete this team source (one query at most)."""
    return may_manage(row, context["request"].user)
