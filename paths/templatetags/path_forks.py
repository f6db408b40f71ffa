"""The fork's line on a path's page: `{% upstream_summary path %}` says how many changes its
origin made since, or that the origin is out of the reader's sight (never its title then)."""

from typing import Any

from django import template

from ..forking import changed_ids, origin_of
from ..models import Path

register = template.Library()


@register.inclusion_tag("paths/includes/upstream_summary.html", takes_context=True)
def upstream_summary(context: dict[str, Any], path: Path) -> dict[str, Any]:
    if not (path.forked_from_id or path.forked_from_list_id):
        return {"upstream": None}
    origin = origin_of(path, context["request"].user)
    if origin is None:
        return {"upstream": None}
    if not origin.visible:
        return {"upstream": {"visible": False}}
    count = len(changed_ids(list(path.origin_snapshot or []), list(origin.source_ids)))
    upstream = {"visible": True, "count": count, "key": path.key}
    upstream |= {"title": origin.title, "url": origin.url}
    return {"upstream": upstream}
