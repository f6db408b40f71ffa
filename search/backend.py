"""What both backends share: the page's filters, the orders that ignore the query, the cards."""

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db.models import Expression, F, Q, QuerySet
from django.db.models.expressions import Combinable

from catalog.models import ListEntry, Source, Topic

from .facets import Facets
from .parsing import ParsedQuery, SearchParams

SUGGESTIONS = 3

# Orders that do not depend on the query; sources and search entries both have these fields.
ORDERINGS: dict[str, tuple[str | Combinable, ...]] = {
    "newest": ("-created", "-pk"),
    "title": ("title", "pk"),
    "year": (F("year").desc(nulls_last=True), "title", "pk"),
}


@dataclass(frozen=True)
class Suggestion:
    title: str
    slug: str


def narrowed[Rows: QuerySet[Any]](
    rows: Rows,
    params: SearchParams,
    *,
    in_topic: Callable[[Topic], Q],
    source_id: str = "pk",
) -> Rows:
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


def cards(ids: list[int], using: str, **annotations: Expression) -> list[Source]:
    """The page's sources, in the order of `ids`, with what their cards show."""
    if not ids:
        return []
    # Not in_bulk(), which keeps the model's ordering: the rows are put in the order of `ids`
    # here, and sorting them in SQL too cost a quarter of the statement's compiling.
    rows = Source.objects.using(using).for_cards().annotate(**annotations).filter(pk__in=ids)
    found = {source.pk: source for source in rows.order_by()}
    return [found[pk] for pk in ids if pk in found]


# What a search card shows beyond the source's fields is set on the Source instances the page
# shows, for the template to read as `source.snippet` and `source.marked_title`, as the ORM sets
# annotations. The model declares neither, so they are written and read only through these
# functions, which give them a type.
SNIPPET, MARKED_TITLE = "snippet", "marked_title"


def set_card_text(source: Source, *, snippet: str, marked_title: str) -> None:
    setattr(source, SNIPPET, snippet)
    setattr(source, MARKED_TITLE, marked_title)


def marked_title(source: Source) -> str:
    """The card's label set by set_card_text() ("" when the title has no match)."""
    label: str = getattr(source, MARKED_TITLE)
    return label


def set_marked_title(source: Source, label: str) -> None:
    setattr(source, MARKED_TITLE, label)


def text_annotation(source: Source, name: str) -> str | None:
    """A text column that cards() annotated `source` with (None where SQL gave NULL)."""
    value: str | None = getattr(source, name)
    return value


def plain_cards(ids: list[int], using: str) -> list[Source]:
    """The page's cards without a query: no snippets or marked titles, but the attributes set
    (a missing one costs the template a dir() of the model, about 20 µs each, three per card)."""
    sources = cards(ids, using)
    for source in sources:
        set_card_text(source, snippet="", marked_title="")
    return sources


class Backend[Matches: QuerySet[Any]](ABC):
    """Given matches, the ids of the sources in the chosen order, and the page's cards.

    `Matches` is what the backend searches: sources, or search entries.
    """

    def prepare(
        self, query: ParsedQuery, using: str, *, exact: bool = False, widen_later: bool = False
    ) -> ParsedQuery:
        """The query as the backend searches it. With `widen_later`, a backend may leave what
        only a thin page needs to widen()."""
        return query

    def widen(self, query: ParsedQuery, shown: int, using: str) -> ParsedQuery | None:
        """The query with its any-word match, when prepare() left that to the page and the
        page, `shown` matches, is thin; None when the page stands as it is."""
        return None

    @abstractmethod
    def matches(self, params: SearchParams, query: ParsedQuery, using: str) -> Matches:
        """Each backend's own."""

    @abstractmethod
    def facet_counts(self, matches: Matches, sort: str, query: ParsedQuery, page: int) -> Facets:
        """Each backend's own."""

    @abstractmethod
    def suggestions(self, query: ParsedQuery, using: str) -> list[Suggestion]:
        """Each backend's own."""

    @abstractmethod
    def result_cards(self, ids: list[int], query: ParsedQuery, using: str) -> list[Source]:
        """The page's cards, with snippets and marked titles when there is a query."""

    def ordered_ids(self, matches: Matches, sort: str, query: ParsedQuery) -> QuerySet[Any, int]:
        if sort == "relevance":
            ordered = self.by_relevance(matches, query)
        elif sort == "list":
            ordered = self.in_list_order(matches)
        else:
            ordered = matches.order_by(*ORDERINGS[sort])
        return ordered.values_list("pk", flat=True)

    @abstractmethod
    def by_relevance(self, matches: Matches, query: ParsedQuery) -> Matches:
        """Each backend's own."""

    @abstractmethod
    def in_list_order(self, matches: Matches) -> Matches:
        """Each backend's own."""
