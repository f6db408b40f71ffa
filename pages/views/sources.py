"""A source's own page."""

from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from catalog.models import ListEntry, Source, SourceNeighbour
from readinglist.pagecache import page_cache
from readinglist.requests import HtmxHttpRequest


@page_cache(shared=True, reader=True, team=True)
@require_GET
def source_detail(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    source = get_object_or_404(
        Source.objects.select_related("tier", "replaced_by").prefetch_related("topics"), slug=slug
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
        {"source": source, "entries": entries, "related": related},
    )
