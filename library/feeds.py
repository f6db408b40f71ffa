"""Each saved search's Atom feed: the catalog's source feed, narrowed to what the search finds."""

from dataclasses import dataclass

from django.http import HttpRequest
from django.urls import reverse

from catalog.feeds import FEED_ITEMS, SourcesFeed
from catalog.querysets import SourceQuerySet

from .follows import described, follow_from_feed_token, saved_search_sources, search_url
from .models import Follow


@dataclass(frozen=True)
class FeedSearch:
    """The saved search a feed is about, with the signed token its address was reached by."""

    follow: Follow
    token: str


class SavedSearchFeed(SourcesFeed):
    def get_object(self, request: HttpRequest, token: str) -> FeedSearch:
        return FeedSearch(follow_from_feed_token(token), token)

    def title(self, obj: FeedSearch) -> str:
        return f"readinglist: {described([obj.follow])[0].label}"

    def subtitle(self, obj: FeedSearch) -> str:
        return "New and changed sources that match a saved search."

    def link(self, obj: FeedSearch) -> str:
        return search_url(obj.follow.target)

    def feed_url(self, obj: FeedSearch) -> str:
        return reverse("library:saved-search-feed", args=[obj.token])

    def items(self, obj: FeedSearch) -> SourceQuerySet:
        matches = saved_search_sources(obj.follow.target)
        return matches.published().select_related("tier").prefetch_related("topics")[:FEED_ITEMS]
