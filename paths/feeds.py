"""The Atom feed of a public path's changes, newest first.

Only a public path has a feed: an unlisted path is shared by its link, and a feed address is
the kind of link aggregators publish, so its changes stay on its page for those who hold it.
Private and team paths are 404 here as everywhere else.
"""

from __future__ import annotations

from datetime import datetime

from django.contrib.syndication.views import Feed
from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.feedgenerator import Atom1Feed

from .models import Path, PathChange
from .team_only import shown_summary

FEED_ITEMS = 50


class PathChangesFeed(Feed):
    feed_type = Atom1Feed

    def get_object(self, request: HttpRequest, key: str) -> Path:
        return get_object_or_404(Path.objects.public().select_related("team", "user"), key=key)

    def title(self, path: Path) -> str:
        return f"readinglist: changes to “{path.title}”"

    def subtitle(self, path: Path) -> str:
        return f"Steps added, moved and removed on the reading path by {path.owner_name}."

    def link(self, path: Path) -> str:
        return path.get_absolute_url()

    def feed_url(self, path: Path) -> str:
        return reverse("paths:feed", args=[path.key])

    def author_name(self, path: Path) -> str:
        return path.owner_name

    def items(self, path: Path) -> list[PathChange]:
        changes = path.changes.select_related("actor", "source", "path").order_by("-at", "-pk")
        return list(changes[:FEED_ITEMS])

    def item_title(self, change: PathChange) -> str:
        return shown_summary(change, change.path)

    def item_description(self, change: PathChange) -> str:
        who = change.actor.public_name if change.actor else "Someone"
        return f"{who}: {change.get_action_display()}."

    def item_link(self, change: PathChange) -> str:
        return f"{change.path.get_absolute_url()}#change-{change.pk}"

    def item_guid(self, change: PathChange) -> str:
        return f"path-change-{change.pk}"

    item_guid_is_permalink = False

    def item_pubdate(self, change: PathChange) -> datetime:
        return change.at

    def item_updateddate(self, change: PathChange) -> datetime:
        return change.at
