"""Topics, tiers and reading lists: each index, and each one's page of sources."""

from django.conf import settings
from django.core.paginator import Paginator
from django.db.models import Count
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from catalog.lists import companion_entries, list_sections, path_entries
from catalog.models import ReadingList, Source, Tier, Topic
from paths.models import Path
from readinglist.pagecache import page_cache
from readinglist.requests import HtmxHttpRequest

from ..context import topic_tree


@page_cache(shared=True)
@require_GET
def topic_index(request: HtmxHttpRequest) -> HttpResponse:
    return render(request, "pages/topic_index.html", {"topics": topic_tree()})


@page_cache(shared=True)
@require_GET
def tier_index(request: HtmxHttpRequest) -> HttpResponse:
    return render(request, "pages/tier_index.html", {"tiers": Tier.objects.with_counts()})


@page_cache(shared=True, params={"page"})
@require_GET
def list_index(request: HtmxHttpRequest) -> HttpResponse:
    """The curated lists as ever, then the public paths readers and teams share, apart."""
    lists = ReadingList.objects.with_counts()
    community = (
        Path.objects.public()
        .select_related("user", "team")
        .annotate(step_count=Count("steps"))
        .order_by("-updated", "-pk")
    )
    paths = Paginator(community, settings.CATALOG_PAGE_SIZE).get_page(request.GET.get("page"))
    return render(request, "pages/list_index.html", {"lists": lists, "paths": paths})


@page_cache(shared=True, reader=True, params={"page"})
@require_GET
def topic_detail(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    topic = get_object_or_404(Topic.objects.select_related("parent"), slug=slug)
    sources = Source.objects.published().in_topic(topic).for_cards().in_list_order()
    page = Paginator(sources, settings.CATALOG_PAGE_SIZE).get_page(request.GET.get("page"))
    subtopics = topic.children.with_counts()
    return render(
        request, "pages/topic_detail.html", {"topic": topic, "page": page, "subtopics": subtopics}
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
    return render(request, "pages/tier_detail.html", context)


@page_cache(shared=True, reader=True, team=True)
@require_GET
def list_detail(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    reading_list = get_object_or_404(ReadingList, slug=slug)
    return render(
        request,
        "pages/list_detail.html",
        {"reading_list": reading_list, "sections": list_sections(reading_list)},
    )
