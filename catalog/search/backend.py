"""What both backends share: the page's filters, the orders that ignore the query, the cards."""

from collections.abc import Callable
from dataclasses import dataclass

from django.db.models import F, Q, QuerySet

from ..models import ListEntry, Source, Topic
from .parsing import ParsedQuery, SearchParams

SUGGESTIONS = 3

# Orders that do not depend on the query; sources and search entries both have these fields.
ORDERINGS = {
    "newest": ("-created", "-pk"),
    "title": ("title", "pk"),
    "year": (F("year").desc(nulls_last=True), "title", "pk"),
}


@dataclass(frozen=True)
class Suggestion:
    title: str
    slug: str


def narrowed(
    rows: QuerySet,
    params: SearchParams,
    *,
    in_topic: Callable[[Topic], Q],
    source_id: str = "pk",
) -> QuerySet:
    """`rows` (sources, or search entries) narrowed by every filter of the page.

    `in_topic(topic)` is the backend's condition for "in this topic or one of its sub-topics".
    """
    for topic in params.topics:
        rows = rows.filter(in_topic(topic))
    if params.tier:
        rows = rows.filter(tier=params.tier)
    if params.kind:
        rows = rows.filter(kind=params.kind)
    if params.reading_list:
        listed = ListEntry.objects.filter(section__reading_list=params.reading_list)
        rows = rows.filter(**{f"{source_id}__in": listed.values("source_id")})
    if params.year_from is not None:
        rows = rows.filter(year__gte=params.year_from, year__lte=params.year_to)
    return rows


def cards(ids: list[int], using: str, **annotations) -> list[Source]:
    """The page's sources, in the order of `ids`, with what their cards show."""
    found = Source.objects.using(using).for_cards().annotate(**annotations).in_bulk(ids)
    return [found[pk] for pk in ids if pk in found]


class Backend:
    """Given matches, the ids of the sources in the chosen order, and the page's cards."""

    def prepare(self, query: ParsedQuery, using: str, *, exact: bool = False) -> ParsedQuery:
        return query

    def result_cards(self, ids: list[int], query: ParsedQuery, using: str) -> list[Source]:
        """The page's cards, with snippets and marked titles when there is a query."""
        sources = cards(ids, using)
        if query:
            self.add_snippets(sources, query)
        else:
            # Set, if empty: a missing attribute costs the template a dir() of the model (about
            # 20 µs each, three per card).
            for source in sources:
                source.snippet = source.marked_title = ""
        return sources

    def ordered_ids(self, matches: QuerySet, sort: str, query: ParsedQuery) -> QuerySet:
        if sort == "relevance":
            ordered = self.by_relevance(matches, query)
        elif sort == "list":
            ordered = self.in_list_order(matches)
        else:
            ordered = matches.order_by(*ORDERINGS[sort])
        return ordered.values_list("pk", flat=True)

    def add_snippets(self, sources: list[Source], query: ParsedQuery) -> None:
        raise NotImplementedError

    def by_relevance(self, matches: QuerySet, query: ParsedQuery) -> QuerySet:
        raise NotImplementedError

    def in_list_order(self, matches: QuerySet) -> QuerySet:
        raise NotImplementedError
