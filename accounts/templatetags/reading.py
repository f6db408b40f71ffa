"""How catalog templates show a reader's state, without knowing accounts' models (DESIGN §1).

Every tag reads the reader's library once per request (see accounts.reading), so a page of
100 cards costs one query for all their bookmark states, and anonymous visitors cost none.
"""

from django import template

from .. import reading
from ..models import Bookmark

register = template.Library()


def _request(context):
    return context.get("request")


@register.inclusion_tag("accounts/includes/bookmark_control.html", takes_context=True)
def bookmark_control(context, source, compact=False):
    request = _request(context)
    states = reading.request_states(request)
    return {
        "source": source,
        "status": states.get(source.pk, ""),
        "choices": Bookmark.Status.choices,
        "next": request.get_full_path() if request else "",
        "csrf_token": context.get("csrf_token"),
        "user": context.get("user"),
        "compact": compact,
    }


@register.simple_tag(takes_context=True)
def reading_status(context, source):
    """The reader's status for `source` ("" when not saved): `{% reading_status s as status %}`."""
    return reading.request_states(_request(context)).get(source.pk, "")


@register.simple_tag(takes_context=True)
def team_finished(context, source):
    """How many members finished `source`; 0 for anonymous visitors, who never see names."""
    return reading.team_finished(_request(context)).get(source.pk, 0)


def _progress_context(context, sources, **extra):
    request = _request(context)
    states = reading.request_states(request)
    return {
        "progress": reading.progress_along(sources, states),
        "user": context.get("user"),
        "request": request,
        **extra,
    }


@register.inclusion_tag("accounts/includes/path_progress.html", takes_context=True)
def path_progress(context, path=None, inner=False):
    """Progress along the Start-here path; `path` defaults to the page's `path` entries.

    `inner` renders only the region's content, which is what its in-place refresh swaps in.
    """
    entries = path if path is not None else context.get("path") or []
    return _progress_context(context, [entry.source for entry in entries], inner=inner)


@register.inclusion_tag("accounts/includes/list_progress.html", takes_context=True)
def list_progress(context, reading_list, sections=None, inner=False):
    """Progress along a reading list, in its sections' order; sections come prefetched."""
    sections = sections if sections is not None else context.get("sections") or []
    sources = [entry.source for section in sections for entry in section.entries.all()]
    return _progress_context(context, sources, reading_list=reading_list, inner=inner)


@register.inclusion_tag("accounts/includes/team_activity.html", takes_context=True)
def team_activity(context, source):
    request = _request(context)
    viewer = request.user if request else None
    return {"activity": reading.team_activity(source, viewer), "source": source}
