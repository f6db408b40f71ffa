"""Read rules for notes: who may see which note, and note search."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.contrib.postgres.search import SearchQuery, SearchVector
from django.db import connection, models
from django.db.models import Q
from django.utils import timezone

from catalog.models import Source
from catalog.querysets import visible_source
from teams.models import Membership

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser

    from accounts.models import User
    from catalog.models import ReadingList, Topic
    from teams.models import Team

    Reader = User | AnonymousUser

# How long a deleted note still offers "Undo" on the page.
UNDO_WINDOW = timedelta(seconds=10)
# How long a deleted note can still be restored; after this it is purged for good.
PURGE_AFTER = timedelta(seconds=60)


def _in_teams_of(user: User) -> Q:
    # A subquery rather than a join: joined, a note would come back once per team member.
    return Q(visibility="team", team__in=Membership.objects.filter(user=user).values("team_id"))


class NoteQuerySet(models.QuerySet):
    def live(self) -> NoteQuerySet:
        """Notes that are not deleted (deleted notes are hidden everywhere at once)."""
        return self.filter(deleted_at__isnull=True)

    def owned_by(self, user: Reader) -> NoteQuerySet:
        if not user.is_authenticated:
            return self.none()
        # A note on a team's own source goes with the source when its author leaves the team.
        return self.live().filter(visible_source(user), user=user)

    def shared_with_teams_of(self, user: Reader) -> NoteQuerySet:
        """Notes shared with any team `user` belongs to (their own included)."""
        if not user.is_authenticated:
            return self.none()
        return self.live().filter(_in_teams_of(user))

    def shared_with_teams(self, teams: list[Team]) -> NoteQuerySet:
        """Notes shared with `teams`: the reader's own teams, as shared_with_teams_of finds."""
        return self.live().filter(visibility="team", team__in=[team.pk for team in teams])

    def visible_to(self, user: Reader) -> NoteQuerySet:
        """A reader sees their own notes and the notes shared with their teams; visitors none."""
        if not user.is_authenticated:
            return self.none()
        return self.live().filter(Q(user=user) | _in_teams_of(user)).filter(visible_source(user))

    def restorable_by(self, user: Reader, now: datetime | None = None) -> NoteQuerySet:
        """The reader's own deleted notes that can still be restored."""
        if not user.is_authenticated:
            return self.none()
        since = (now or timezone.now()) - PURGE_AFTER
        return self.filter(user=user, deleted_at__gte=since)

    def on_source_for(
        self, user: Reader, source: Source, now: datetime | None = None
    ) -> NoteQuerySet:
        """The notes a reader sees on a source page, newest first, in one query.

        The reader's own notes deleted within the undo window come along so the page can offer
        "Undo" (also without JavaScript, after the redirect).
        """
        if not user.is_authenticated:
            return self.none()
        undo_since = (now or timezone.now()) - UNDO_WINDOW
        return (
            self.filter(source=source)
            .filter(
                Q(deleted_at__isnull=True, user=user)
                | Q(deleted_at__isnull=True) & _in_teams_of(user)
                | Q(user=user, deleted_at__gte=undo_since)
            )
            .for_display()
            .newest()
        )

    def deleted_before(self, moment: datetime) -> NoteQuerySet:
        return self.filter(deleted_at__lt=moment)

    def for_display(self) -> NoteQuerySet:
        return self.select_related("user", "source", "team")

    def newest(self) -> NoteQuerySet:
        return self.order_by("-created", "-pk")

    def search(self, query: str | None) -> NoteQuerySet:
        """Notes matching every word of `query` in the body, quote, locator or source title.

        PostgreSQL uses English full-text search (stemming, websearch syntax); other databases
        require each word as a case-insensitive substring. This is the only vendor branch.
        """
        query = (query or "").strip()
        if not query:
            return self
        if connection.vendor == "postgresql":
            document = SearchVector("body", "quote", "locator", "source__title", config="english")
            return self.annotate(document=document).filter(
                document=SearchQuery(query, search_type="websearch", config="english")
            )
        matches = Q()
        for word in query.split():
            matches &= (
                Q(body__icontains=word)
                | Q(quote__icontains=word)
                | Q(locator__icontains=word)
                | Q(source__title__icontains=word)
            )
        return self.filter(matches)

    def in_topic(self, topic: Topic) -> NoteQuerySet:
        return self.filter(source__in=Source.objects.in_topic(topic).values("pk"))

    def in_list(self, reading_list: ReadingList) -> NoteQuerySet:
        sources = Source.objects.filter(entries__section__reading_list=reading_list)
        return self.filter(source__in=sources.values("pk"))

    def filtered(
        self,
        *,
        q: str = "",
        topic: Topic | None = None,
        list: ReadingList | None = None,
        visibility: str = "",
    ) -> NoteQuerySet:
        notes = self.search(q)
        if topic:
            notes = notes.in_topic(topic)
        if list:
            notes = notes.in_list(list)
        if visibility:
            notes = notes.filter(visibility=visibility)
        return notes
