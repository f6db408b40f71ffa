from typing import Any

from django import template
from django.template import Context
from django.template.context_processors import csrf

from ..forms import FromPageForm, TeamSourceForm
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


@register.inclusion_tag("teamsources/includes/from_page_form.html", takes_context=True)
def team_source_from_page(
    context: Context, teams: list[Any], url: str, title: str, passage: Any
) -> dict[str, Any]:
    """The save page's offer, for a page the catalog lacks: add it to one of the reader's teams
    (`teams`, theirs) and carry the passage on to a thread there."""
    initial = {"url": url, "title": title, "quote": passage.exact}
    initial |= {"prefix": passage.prefix, "suffix": passage.suffix}
    return {"form": FromPageForm(teams=teams, initial=initial), **csrf(context["request"])}


@register.simple_tag(takes_context=True)
def may_manage_team_source(context: Context, row: TeamSource) -> bool:
    """Whether the reader may edit and delete this team source (one query at most)."""
    return may_manage(row, context["request"].user)
