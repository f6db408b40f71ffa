from typing import Any

from django import template
from django.template import Context
from django.template.context_processors import csrf

from ..forms import TeamSourceForm
from ..models import TeamSource

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
        **csrf(context["request"]),
    }
