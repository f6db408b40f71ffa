"""Follows: what a reader follows, checked before it is saved, and what in the catalog matches.

A topic includes its sub-topics; a tier and a reading list match the sources in them; a saved
search matches what the search page shows for its query string (the same form parses both, so
a saved search means exactly what the reader saw when they saved it).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING
from urllib.parse import urlencode

from django.core import signing
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.http import Http404, QueryDict
from django.urls import reverse

from catalog.models import ChangeLogEntry, ReadingList, Source, Tier, Topic
from catalog.models.changes import ChangeLogQuerySet
from catalog.querysets import SourceQuerySet
from search.forms import SearchForm
from search.page import matching_sources

from .models import DigestSettings, Follow

if TYPE_CHECKING:
    from accounts.models import User

Kind = Follow.Kind
MAX_FOLLOWS = 50
SAVED_SEARCH_KEYS = ("q", "topic", "tier", "list", "kind", "year", "exact")
# A saved search matches at most this many sources (the best first) when looking for changes.
SAVED_SEARCH_REACH = 500
TARGET_MODELS: dict[str, type[Topic | Tier | ReadingList]] = {
    Kind.TOPIC: Topic,
    Kind.TIER: Tier,
    Kind.LIST: ReadingList,
}


@dataclass(frozen=True)
class Followed:
    follow: Follow
    label: str  # "Topic: Attention", "Saved search: flash attention"
    url: str  # the page the follow is about
    feed_token: str = ""  # saved searches: the signed part of their Atom feed's address


def saved_search_target(data: QueryDict) -> str:
    """The query string a saved search keeps, or a ValidationError saying why it cannot be
    saved. Only the search's own parameters are kept (no page, no order), in a fixed order."""
    form = SearchForm(data)
    if not form.is_valid():
        raise ValidationError([e for errors in form.errors.values() for e in errors])
    if form.notices:
        raise ValidationError(form.notices)
    # The query as the search page cleaned it (a query cut to length is refused above).
    pairs = [
        (key, form.cleaned_data["q"] if key == "q" else value.strip())
        for key in SAVED_SEARCH_KEYS
        for value in data.getlist(key)
        if value.strip()
    ]
    if not pairs:
        raise ValidationError("Type a search or choose a filter before saving it.")
    return urlencode(pairs)


def target_object(kind: str, target: str) -> Topic | Tier | ReadingList:
    """The topic, tier or list a follow names; Http404 when there is none."""
    model = TARGET_MODELS.get(kind)
    found = model.objects.filter(slug=target).first() if model else None
    if found is None:
        raise Http404("Nothing to follow there.")
    return found


@transaction.atomic
def follow(*, user: User, kind: str, target: str) -> Follow:
    """Follow `target`. Idempotent. The first follow turns the digest on (weekly)."""
    if kind != Kind.SEARCH:
        target_object(kind, target)
    elif not target:
        raise ValidationError("Type a search or choose a filter before saving it.")
    existing = Follow.objects.filter(user=user, kind=kind, target=target).first()
    if existing:
        return existing
    if Follow.objects.filter(user=user).count() >= MAX_FOLLOWS:
        raise ValidationError(f"You can follow up to {MAX_FOLLOWS} things; unfollow one first.")
    created, _ = Follow.objects.get_or_create(user=user, kind=kind, target=target)
    DigestSettings.objects.get_or_create(user=user)
    return created


def unfollow(*, user: User, follow_id: int) -> None:
    deleted, _ = Follow.objects.filter(user=user, pk=follow_id).delete()
    if not deleted:
        raise Http404("You do not follow that.")


def search_url(target: str) -> str:
    return f"{reverse('pages:source-list')}?{target}"


def described(follows: list[Follow]) -> list[Followed]:
    """Each follow with a label and a link, in one query per kind of target."""
    names: dict[tuple[str, str], tuple[str, str]] = {}
    for kind, model in TARGET_MODELS.items():
        slugs = [f.target for f in follows if f.kind == kind]
        if slugs:
            for obj in model.objects.filter(slug__in=slugs):
                names[(kind, obj.slug)] = (str(obj), obj.get_absolute_url())
    found = []
    for f in follows:
        if f.kind == Kind.SEARCH:
            label = f"Saved search: {search_description(f.target)}"
            found.append(Followed(f, label, search_url(f.target), feed_token(f.pk)))
        elif (f.kind, f.target) in names:
            name, url = names[(f.kind, f.target)]
            found.append(Followed(f, f"{f.get_kind_display()}: {name}", url))
    return found


# How a saved search's filters read in a list of follows; sort and page change no result.
FILTER_NAMES = {"topic": "topic", "tier": "tier", "kind": "kind", "list": "list", "year": "year"}


def search_description(target: str) -> str:
    """A saved search in words: its text and every filter it carries, as
    "attention (topic: kernels, year: 2023)", so two searches with the same words differ."""
    query = QueryDict(target)
    words = query.get("q", "").strip()
    filters = [
        f"{name}: {value}"
        for key, name in FILTER_NAMES.items()
        for value in query.getlist(key)
        if value.strip()
    ]
    if not filters:
        return words or "everything"
    joined = ", ".join(filters)
    return f"{words} ({joined})" if words else joined


def _saved_search_ids(target: str) -> list[int]:
    query = QueryDict(target)
    form = SearchForm(query)
    form.is_valid()
    params = form.params()
    params.exact = query.get("exact") == "1"  # as the search page reads it
    return [s.pk for s in matching_sources(params, limit=SAVED_SEARCH_REACH)]


def sources_matching(follows: list[Follow]) -> Q:
    """A condition on Source that holds for every source any of `follows` covers."""
    condition = Q(pk__in=[])
    slugs = {kind: [f.target for f in follows if f.kind == kind] for kind in Kind.values}
    if slugs[Kind.TOPIC]:
        condition |= Q(topics__slug__in=slugs[Kind.TOPIC])
        condition |= Q(topics__parent__slug__in=slugs[Kind.TOPIC])
    if slugs[Kind.TIER]:
        condition |= Q(tier__slug__in=slugs[Kind.TIER])
    if slugs[Kind.LIST]:
        condition |= Q(entries__section__reading_list__slug__in=slugs[Kind.LIST])
    for target in slugs[Kind.SEARCH]:
        condition |= Q(pk__in=_saved_search_ids(target))
    return condition


def _followed_entries(user: User, since: datetime | None) -> ChangeLogQuerySet | None:
    follows = list(Follow.objects.filter(user=user))
    if not follows:
        return None
    matching = Source.objects.filter(sources_matching(follows)).values("pk")
    return ChangeLogEntry.objects.since(since).filter(source__in=matching)


def followed_changes(
    user: User, since: datetime | None, *, limit: int = 20
) -> list[ChangeLogEntry]:
    """Changes to sources the reader follows, logged after `since`, newest first."""
    entries = _followed_entries(user, since)
    return [] if entries is None else list(entries.for_display()[:limit])


def followed_changes_capped(
    user: User, since: datetime | None, *, limit: int
) -> tuple[list[ChangeLogEntry], int]:
    """The newest `limit` changes, and how many more there are beyond them."""
    entries = _followed_entries(user, since)
    if entries is None:
        return [], 0
    shown = list(entries.for_display()[:limit])
    more = entries.count() - len(shown) if len(shown) == limit else 0
    return shown, more


FEED_SALT = "library.saved-search.feed"


def feed_token(follow_id: int) -> str:
    """A feed reader cannot log in, so a saved search's feed URL carries its id, signed."""
    return signing.dumps(follow_id, salt=FEED_SALT)


def follow_from_feed_token(token: str) -> Follow:
    try:
        follow_id = signing.loads(token, salt=FEED_SALT)
    except signing.BadSignature:
        raise Http404("This feed address is not valid.") from None
    found = Follow.objects.filter(pk=follow_id, kind=Kind.SEARCH).first()
    if found is None:
        raise Http404("This saved search no longer exists.")
    return found


def saved_search_sources(target: str) -> SourceQuerySet:
    """What a saved search matches, most recently changed first."""
    return Source.objects.filter(pk__in=_saved_search_ids(target)).order_by("-updated", "-pk")
