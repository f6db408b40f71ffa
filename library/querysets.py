"""Read rules for a reader's library."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import models
from django.db.models import Min, Q

from catalog.querysets import visible_source

if TYPE_CHECKING:
    from accounts.models import User
    from catalog.models import ReadingList, Tier, Topic


class BookmarkQuerySet(models.QuerySet):
    def of(self, user: User) -> BookmarkQuerySet:
        # A team's own source leaves the reader's library when they leave the team.
        return self.filter(visible_source(user), user=user)

    def for_cards(self) -> BookmarkQuerySet:
        """Everything a library card shows (cards show no topics), in one query."""
        return self.select_related("source__tier")

    def with_status(self, status: str | None) -> BookmarkQuerySet:
        return self.filter(status=status) if status else self

    def in_topic(self, topic: Topic | None) -> BookmarkQuerySet:
        """A topic includes its sub-topics, as on the catalog's topic pages."""
        if not topic:
            return self
        from catalog.models import Source

        return self.filter(source__in=Source.objects.in_topic(topic).values("pk"))

    def in_tier(self, tier: Tier | None) -> BookmarkQuerySet:
        return self.filter(source__tier=tier) if tier else self

    def in_list(self, reading_list: ReadingList | None) -> BookmarkQuerySet:
        if not reading_list:
            return self
        from catalog.models import ListEntry

        cited = ListEntry.objects.filter(section__reading_list=reading_list).values("source")
        return self.filter(source__in=cited)

    def search(self, query: str | None) -> BookmarkQuerySet:
        """A simple match on title, authors and aliases: a library is small."""
        query = (query or "").strip()
        if not query:
            return self
        return self.filter(
            Q(source__title__icontains=query)
            | Q(source__authors__icontains=query)
            | Q(source__aliases__icontains=query)
        )

    def sorted_by(self, sort: str, reading_list: ReadingList | None = None) -> BookmarkQuerySet:
        if sort == "title":
            return self.order_by("source__title", "pk")
        if sort == "list":
            # Order by the source's place in the chosen list, or its first citation in any list.
            where = Q(source__entries__section__reading_list=reading_list) if reading_list else None
            return self.annotate(
                first_list=Min("source__entries__section__reading_list__position", filter=where),
                first_section=Min("source__entries__section__position", filter=where),
                first_position=Min("source__entries__position", filter=where),
            ).order_by(
                models.F("first_list").asc(nulls_last=True),
                models.F("first_section").asc(nulls_last=True),
                models.F("first_position").asc(nulls_last=True),
                "source__title",
                "pk",  # a total order, so no bookmark moves between pages
            )
        return self.order_by("-saved_at", "-pk")
