"""Each saved search's Atom feed: the catalog's source feed, narrowed to what the search finds."""

from django.http import HttpRequest
from django.urls import reverse

from catalog.feeds import FEED_ITEMS, SourcesFeed

from .follows import described, follow_from_feed_token, saved_search_sources, search_url
from .models import Follow


class SavedSearchFeed(SourcesFeed):
    def get_object(self, request: HttpRequest, token: str) -> Follow:
        follow = follow_from_feed_token(token)
        follow.token = token
        return follow

    def title(self, obj: Follow) -> str:
        return f"readinglist: {described([obj])[0].label}"

    def subtitle(self, obj: Follow) -> str:
        return "New and changed sources that match a saved search."

    def link(self, obj: Follow) -> str:
        return search_url(obj.target)

    def feed_url(self, obj: Follow) -> str:
        return reverse("library:saved-search-feed", args=[obj.token])

    def items(self, obj: Follow):
        matches = saved_search_sources(obj.target)
        return matches.published().select_related("tier").prefetch_related("topics")[:FEED_ITEMS]
