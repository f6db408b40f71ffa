from django.conf import settings
from django.core.paginator import Paginator
from django.http import HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.views.decorators.http import require_GET

from readinglist.pagecache import page_cache
from readinglist.requests import HtmxHttpRequest

from ..changelog import changes_since_last_visit, mark_changes_seen
from ..exports import catalog_document
from ..models import ListEntry, ReadingList, Source, SourceNeighbour, Tier, Topic
from ..pages import companion_entries, home_context, list_sections, path_entries, topic_tree


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


@page_cache(shared=True)
@require_GET
def topic_index(request: HtmxHttpRequest) -> HttpResponse:
    return render(request, "catalog/topic_index.html", {"topics": topic_tree()})


@page_cache(shared=True)
@require_GET
def tier_index(request: HtmxHttpRequest) -> HttpResponse:
    return render(request, "catalog/tier_index.html", {"tiers": Tier.objects.with_counts()})


@page_cache(shared=True)
@require_GET
def list_index(request: HtmxHttpRequest) -> HttpResponse:
    lists = ReadingList.objects.with_counts()
    return render(request, "catalog/list_index.html", {"lists": lists})


@page_cache(shared=True, reader=True, params={"page"})
@require_GET
def topic_detail(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    topic = get_object_or_404(Topic.objects.select_related("parent"), slug=slug)
    sources = Source.objects.published().in_topic(topic).for_cards().in_list_order()
    page = Paginator(sources, settings.CATALOG_PAGE_SIZE).get_page(request.GET.get("page"))
    subtopics = topic.children.with_counts()
    return render(
        request, "catalog/topic_detail.html", {"topic": topic, "page": page, "subtopics": subtopics}
    )


@page_cache(shared=True, reader=True, team=True, params={"page"})
@require_GET
def tier_detail(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tier = get_object_or_404(Tier, slug=slug)
    sources = Source.objects.published().filter(tier=tier).for_cards().in_list_order()
    rules_from = ReadingList.objects.exclude(contribution_rules="")
    context: dict[str, object] = {"tier": tier, "rules_from": rules_from}
    if tier.slug == Tier.START_HERE:
        # The path lists its own sources, in order; cards follow only for the tier's others.
        path = path_entries()
        context["path"] = path
        context["companions"] = companion_entries()
        on_path = [entry.source_id for entry in path]
        sources = sources.exclude(pk__in=on_path)
    context["page"] = Paginator(sources, settings.CATALOG_PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    return render(request, "catalog/tier_detail.html", context)


@page_cache(shared=True, reader=True, team=True)
@require_GET
def list_detail(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    reading_list = get_object_or_404(ReadingList, slug=slug)
    return render(
        request,
        "catalog/list_detail.html",
        {"reading_list": reading_list, "sections": list_sections(reading_list)},
    )


@require_GET
def catalog_json(request: HtmxHttpRequest) -> JsonResponse:
    return JsonResponse(catalog_document(), json_dumps_params={"ensure_ascii": False})
