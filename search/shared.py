"""What the stages share on either database: the matches (`Matched`), the page's filters, the
cards and the text a search card shows."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db.models import Expression, Q, QuerySet

from catalog.models import ListEntry, Source, Topic

from .parsing import ParsedQuery, SearchParams

SUGGESTIONS = 3


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


@dataclass(frozen=True)
class Matched:
    """The query as searched, and what it matches.

    The page reads `corrected` ("Showing results for…"), `partial` and `complete` (some
    results have only some of the words), and `identified` (the sources an identifier names).
    """

    query: ParsedQuery
    rows: QuerySet[Any]  # search entries or sources, narrowed by the page's filters
    # The query as searched after typo correction, when a word was replaced ("" if none).
    corrected: str = ""
    # ((source id, name level), ...): the sources the query names (see names.py), and those
    # that all but its first or last word names ("pmpp book"), which a search that finds
    # nothing suggests.
    named: tuple[tuple[int, float], ...] = ()
    named_in_part: tuple[tuple[int, float], ...] = ()
    # Whether the page also ranks the any-word match (described.py): the all-words match was
    # thin, so some results have only some of the words.
    partial: bool = False
    # How many sources have every word (counted up to described.COMMON), when `partial`.
    complete: int = 0
    # The published sources the query names by an identifier, best match first.
    identified: tuple[int, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.query)


@dataclass(frozen=True)
class Ranked:
    """The matches in the page's order (`ids`), and what the facet statement reads of them: a
    row of `columns` per match (source id, tier, kind, year, then what the backend keeps), how
    topics and lists are counted (`set_counts`: facets.JOIN_COUNTS or set_keys.KEY_COUNTS),
    and an ORDER BY over the columns when the facet statement is to pick the page's ids."""

    ids: QuerySet[Any, int]
    facet_rows: QuerySet[Any]
    columns: tuple[str, ...]
    set_counts: dict[str, str]
    page_order: str | None = None
