"""A source's own page."""

from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from catalog.models import ListEntry, Source, SourceNeighbour
from readinglist.pagecache import page_cache
from readinglist.requests import HtmxHttpRequest
from teamsources.lookup import team_source_of


@page_cache(shared=True, reader=True, team=True)
@require_GET
def source_detail(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    # A team's own source is found only by its members; to everyone else it does not exist.
    visible = Source.all_objects.visible_to(request.user)
    source = get_object_or_404(
        visible.select_related("tier", "replaced_by").prefetch_related("topics"), slug=slug
    )
    entries = ListEntry.objects.filter(source=source).select_related("section__reading_list")
    # Stored when the catalog last changed (catalog.related): one query, whatever the catalog size.
    related = (
        SourceNeighbour.objects.filter(source=source, neighbour__status=Source.Status.PUBLISHED)
        .select_related("neighbour__tier")
        .order_by("rank")
    )
    return render(
        request,
        "pages/source_detail.html",
        {
            "source": source,
            "entries": entries,
            "related": related,
            "team_source": team_source_of(source),
        },
    )
