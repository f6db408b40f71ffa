"""The home page: the Start-here path, tiers, lists, topics, what is new, and for a signed-in
reader their reading groups and what changed since their last visit."""

from django.http import HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_GET

from catalog.changelog import changes_since_last_visit, mark_changes_seen
from readinglist.pagecache import page_cache
from readinglist.requests import HtmxHttpRequest

from ..context import home_context


@page_cache(shared=True, reader=True, team=True)
@require_GET
def home(request: HtmxHttpRequest) -> HttpResponse:
    context = home_context()
    if not request.user.is_authenticated:
        return render(request, "pages/home.html", context)
    # The visit is remembered only after the page is rendered, so the reader sees the changes
    # since their previous visit; `seen` is taken first so nothing recorded meanwhile is skipped.
    seen = timezone.now()
    context["changes"] = changes_since_last_visit(request.user)
    response = render(request, "pages/home.html", context)
    mark_changes_seen(request.user, seen)
    return response
