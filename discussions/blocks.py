"""What the discussion parts of other apps' pages read: one place for the template tags and the
views that re-render those parts after a post."""

from typing import Any

from django.http import HttpRequest
from django.urls import reverse

from catalog.models import Source
from catalog.querysets import private_audience
from library.reading import viewer_teams

from .forms import ThreadForm
from .models import Thread

# The source page shows the latest threads; the rest are one link away, so the page costs the
# same with 1 thread and with 1,000.
SOURCE_PAGE_THREADS = 20


def source_discussion_context(
    request: HttpRequest, source: Source, form: ThreadForm | None = None
) -> dict[str, Any]:
    user = request.user
    threads: list[Thread] = []
    more = False
    if user.is_authenticated:
        found = list(
            Thread.objects.listed_for(user)
            .filter(source=source)
            .for_display()
            .newest()[: SOURCE_PAGE_THREADS + 1]
        )
        threads, more = found[:SOURCE_PAGE_THREADS], len(found) > SOURCE_PAGE_THREADS
    teams = viewer_teams(request)
    audience = private_audience(source)
    if audience is not None:
        # A team's own source is discussed by that team only.
        teams = [team for team in teams if team.pk in audience]
    if form is None and teams:
        form = ThreadForm(teams=teams, prefix_id="thread-new")
    return {
        "request": request,
        "user": user,
        "source": source,
        "threads": threads,
        "more": more,
        "teams": teams,
        "form": form,
        "action": reverse("discussions:source", args=[source.slug]),
    }
