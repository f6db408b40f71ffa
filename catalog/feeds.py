"""Atom feeds (Django's syndication framework): new and changed sources, per topic, per list.

Each feed runs a constant number of queries: the object (topic or list), the items with their
tier selected and their topics prefetched.
"""

from datetime import datetime

from django.contrib.syndication.views import Feed
from django.db.models import Prefetch
from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.feedgenerator import Atom1Feed

from .models import ReadingList, Source, Topic
from .querysets import SourceQuerySet

FEED_ITEMS = 50


def _feed_sources() -> SourceQuerySet:
    return (
        Source.objects.published()
        .select_related("tier")
        .prefetch_related(Prefetch("topics", queryset=Topic.objects.order_by("position")))
        .order_by("-updated", "-pk")
    )


class SourcesFeed(Feed):
    """What every feed of sources shares: how one source reads as an Atom entry.

    Subclasses say what the feed is about (title, subtitle, link, feed_url) and which sources it
    lists (items), either as plain methods or, for a feed about one object, as methods taking it;
    the site-wide feed and the per-object feeds differ there, so none of it lives here.
    """

    feed_type = Atom1Feed
    author_name = "readinglist"
    feed_copyright = "Catalog entries credit the reading lists they come from."

    def item_title(self, item: Source) -> str:
        return item.title

    def item_description(self, item: Source) -> str:
        parts = [item.summary] if item.summary else []
        facts = [item.tier.name, item.get_kind_display()]
        if item.authors:
            facts.append(item.authors)
        if item.year:
            facts.append(str(item.year))
        parts.append(" · ".join(facts))
        if item.url:
            parts.append(item.url)
        return "\n\n".join(parts)

    def item_link(self, item: Source) -> str:
        return item.get_absolute_url()

    def item_guid(self, item: Source) -> str:
        # The page is the identity; `updated` tells feed readers the entry changed.
        return self.item_link(item)

    def item_pubdate(self, item: Source) -> datetime:
        return item.created

    def item_updateddate(self, item: Source) -> datetime:
        return item.updated

    def item_categories(self, item: Source) -> list[str]:
        return [topic.name for topic in item.topics.all()]

    def item_author_name(self, item: Source) -> str | None:
        return item.authors or None


class LatestSourcesFeed(SourcesFeed):
    """Newly added and changed sources, most recently changed first."""

    title = "readinglist: new and changed sources"
    subtitle = "Sources added to or changed in the readinglist catalog."

    def link(self) -> str:
        return reverse("catalog:changes")

    def feed_url(self) -> str:
        return reverse("catalog:feed-sources")

    def items(self) -> SourceQuerySet:
        return _feed_sources()[:FEED_ITEMS]


class TopicFeed(SourcesFeed):
    """Sources in one topic and its sub-topics."""

    def get_object(self, request: HttpRequest, slug: str) -> Topic:
        return get_object_or_404(Topic, slug=slug)

    def title(self, obj: Topic) -> str:
        return f"readinglist: {obj.name}"

    def subtitle(self, obj: Topic) -> str:
        return obj.description or f"New and changed sources about {obj.name}."

    def link(self, obj: Topic) -> str:
        return obj.get_absolute_url()

    def feed_url(self, obj: Topic) -> str:
        return reverse("catalog:feed-topic", args=[obj.slug])

    def items(self, obj: Topic) -> SourceQuerySet:
        return _feed_sources().filter(pk__in=Source.objects.in_topic(obj).values("pk"))[:FEED_ITEMS]


class ReadingListFeed(SourcesFeed):
    """Sources cited by one reading list."""

    def get_object(self, request: HttpRequest, slug: str) -> ReadingList:
        return get_object_or_404(ReadingList, slug=slug)

    def title(self, obj: ReadingList) -> str:
        return f"readinglist: {obj.title}"

    def subtitle(self, obj: ReadingList) -> str:
        return obj.description or f"New and changed sources in {obj.title}."

    def link(self, obj: ReadingList) -> str:
        return obj.get_absolute_url()

    def feed_url(self, obj: ReadingList) -> str:
        return reverse("catalog:feed-list", args=[obj.slug])

    def items(self, obj: ReadingList) -> SourceQuerySet:
        return _feed_sources().filter(entries__section__reading_list=obj).distinct()[:FEED_ITEMS]
