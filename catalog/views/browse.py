from django.http import HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.views.decorators.http import require_GET

from readinglist.pagecache import page_cache
from readinglist.requests import HtmxHttpRequest

from ..changelog import changes_since_last_visit, mark_changes_seen
from ..exports import catalog_document
from ..models import ListEntry, Source, SourceNeighbour
from ..pages import home_context


@page_cache(shared=True, reader=True, team=True)
@require_GET
def home(request: HtmxHttpRequest) -> HttpResponse:
    context = home_context()
    if not request.user.is_authenticated:
        return render(request, "catalog/home.html", context)
    # The visit is remembered only after the page is rendered, so the reader sees the changes
    # since their previous visit; `seen` is taken first so nothing recorded meanwhile is skipped.
    seen = timezone.now()
    context["changes"] = changes_since_last_visit(request.user)
    response = render(request, "catalog/home.html", context)
    mark_changes_seen(request.user, seen)
    return response


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
        "catalog/source_detail.html",
        {"source": source, "entries": entries, "related": related},
    )


@require_GET
def catalog_json(request: HtmxHttpRequest) -> JsonResponse:
    return JsonResponse(catalog_document(), json_dumps_params={"ensure_ascii": False})
