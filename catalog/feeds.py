"""Atom feeds (Django's syndication framework): new and changed sources, per topic, per list.

Each feed runs a constant number of queries: the object (topic or list), the items with their
tier selected and their topics prefetched.
"""

from django.contrib.syndication.views import Feed
from django.db.models import Prefetch
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.feedgenerator import Atom1Feed

from .models import ReadingList, Source, Topic

FEED_ITEMS = 50


def _feed_sources():
    return (
        Source.objects.published()
        .select_related("tier")
        .prefetch_related(Prefetch("topics", queryset=Topic.objects.order_by("position")))
        .order_by("-updated", "-pk")
    )


class SourcesFeed(Feed):
    """Newly added and changed sources, most recently changed first."""

    feed_type = Atom1Feed
    title = "readinglist: new and changed sources"
    subtitle = "Sources added to or changed in the readinglist catalog."
    author_name = "readinglist"
    feed_copyright = "Catalog entries credit the reading lists they come from."

    def link(self):
        return reverse("catalog:changes")

    def feed_url(self):
        return reverse("catalog:feed-sources")

    def items(self):
        return _feed_sources()[:FEED_ITEMS]

    def item_title(self, item):
        return item.title

    def item_description(self, item):
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

    def item_link(self, item):
        return item.get_absolute_url()

    def item_guid(self, item):
        # The page is the identity; `updated` tells feed readers the entry changed.
        return self.item_link(item)

    def item_pubdate(self, item):
        return item.created

    def item_updateddate(self, item):
        return item.updated

    def item_categories(self, item):
        return [topic.name for topic in item.topics.all()]

    def item_author_name(self, item):
        return item.authors or None


class TopicFeed(SourcesFeed):
    """Sources in one topic and its sub-topics."""

    def get_object(self, request, slug):
        return get_object_or_404(Topic, slug=slug)

    def title(self, obj):
        return f"readinglist: {obj.name}"

    def subtitle(self, obj):
        return obj.description or f"New and changed sources about {obj.name}."

    def link(self, obj):
        return obj.get_absolute_url()

    def feed_url(self, obj):
        return reverse("catalog:feed-topic", args=[obj.slug])

    def items(self, obj):
        return _feed_sources().filter(pk__in=Source.objects.in_topic(obj).values("pk"))[:FEED_ITEMS]


class ReadingListFeed(SourcesFeed):
    """Sources cited by one reading list."""

    def get_object(self, request, slug):
        return get_object_or_404(ReadingList, slug=slug)

    def title(self, obj):
        return f"readinglist: {obj.title}"

    def subtitle(self, obj):
        return obj.description or f"New and changed sources in {obj.title}."

    def link(self, obj):
        return obj.get_absolute_url()

    def feed_url(self, obj):
        return reverse("catalog:feed-list", args=[obj.slug])

    def items(self, obj):
        return _feed_sources().filter(entries__section__reading_list=obj).distinct()[:FEED_ITEMS]
