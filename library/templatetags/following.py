"""Follow controls and followed changes on catalog pages, without catalog knowing Follow.

The reader's follows are read once per request (one query, none for anonymous visitors)."""

from typing import Any

from django import template
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.template import Context

from catalog.changelog import last_seen_changes

from ..follows import SAVED_SEARCH_KEYS, followed_changes, saved_search_target
from ..models import Follow

register = template.Library()
_FOLLOWS_ATTR = "_reader_follows"


def _reader_follows(request: HttpRequest | None) -> dict[tuple[str, str], int]:
    if request is None or not request.user.is_authenticated:
        return {}
    follows: dict[tuple[str, str], int] | None = getattr(request, _FOLLOWS_ATTR, None)
    if follows is None:
        rows = Follow.objects.filter(user=request.user).values_list("kind", "target", "pk")
        follows = {(kind, target): pk for kind, target, pk in rows}
        setattr(request, _FOLLOWS_ATTR, follows)
    return follows


@register.inclusion_tag("library/follows_button.html", takes_context=True)
def follow_button(context: Context, kind: str, target: str, name: str) -> dict[str, Any]:
    """Follow (or unfollow) a topic, tier or list."""
    request = context.get("request")
    return {
        "request": request,
        "csrf_token": context.get("csrf_token"),
        "kind": kind,
        "target": target,
        "name": name,
        "follow_id": _reader_follows(request).get((kind, target)),
    }


@register.inclusion_tag("library/follows_save_search.html", takes_context=True)
def save_search_button(context: Context) -> dict[str, Any]:
    """ "Save this search": the page's own search parameters, posted to be followed; or, when the
    reader already saved this very search, saying so with a way to stop."""
    request = context.get("request")
    pairs = []
    follow_id = None
    if request is not None:
        pairs = [(k, v) for k in SAVED_SEARCH_KEYS for v in request.GET.getlist(k) if v.strip()]
        follows = _reader_follows(request)
        if pairs and follows:
            try:
                target = saved_search_target(request.GET)
            except ValidationError:
                target = ""
            follow_id = follows.get((Follow.Kind.SEARCH, target))
    return {
        "request": request,
        "csrf_token": context.get("csrf_token"),
        "pairs": pairs,
        "follow_id": follow_id,
    }


@register.inclusion_tag("library/follows_since.html", takes_context=True)
def followed_since_last_visit(context: Context) -> dict[str, Any]:
    """What changed in what the reader follows since their last home-page visit."""
    request = context.get("request")
    if request is None or not request.user.is_authenticated or not _reader_follows(request):
        return {"entries": None}
    user = request.user
    return {"entries": followed_changes(user, last_seen_changes(user) or user.date_joined)}
