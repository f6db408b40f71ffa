"""The browse-and-search page assembled: matches, facets, the page of cards, chips."""

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.paginator import Page, Paginator
from django.db import connections
from django.utils.html import format_html

from catalog.models import Source, Topic

from .backend import SUGGESTIONS, Backend, Suggestion, cards, marked_title, set_marked_title
from .described import document_stems, query_stems
from .facets import Facets, YearChart
from .identifiers import first_on_page, identified_source_ids
from .parsing import ParsedQuery, SearchParams, chosen_sort, parse_query
from .postgres import PostgresBackend
from .sqlite import ContainsBackend

NEAREST_TOPICS = 3
CLEAR_FILTERS = {"topic": None, "tier": None, "kind": None, "list": None, "year": None}


@dataclass(frozen=True)
class Chip:
    """An active filter; `removal` is the URL change that drops it."""

    label: str
    removal: dict
    keeps_query_box: bool = True


@dataclass
class SearchPage:
    page: Page[Source]
    facets: Facets
    query: ParsedQuery
    sort: str
    chips: list[Chip] = field(default_factory=list)
    suggestions: list[Suggestion] = field(default_factory=list)
    # On an empty or thin page: the topics whose name or description shares the most words
    # with the query.
    nearest_topics: list[Topic] = field(default_factory=list)
    clear_filters: dict = field(default_factory=lambda: dict(CLEAR_FILTERS))


def backend_for(using: str) -> Backend[Any]:
    """The backend for the connection's vendor. Which one, and so what its matches are (search
    entries or sources), is known only at run time; a backend only gets back its own matches."""
    if connections[using].vendor == "postgresql":
        return PostgresBackend()
    return ContainsBackend()


def mark_selected(facets: Facets, params: SearchParams) -> None:
    """Mark the chosen items, give each the URL change that toggles it, chart the years."""
    active_topics = [topic.slug for topic in params.topics]
    for item in facets.topics:
        item.selected = item.value in active_topics
        item.change = {
            "topic": [slug for slug in active_topics if slug != item.value]
            if item.selected
            else [*active_topics, item.value]
        }
    chosen = {
        ("tiers", "tier"): params.tier.slug if params.tier else "",
        ("kinds", "kind"): params.kind,
        ("lists", "list"): params.reading_list.slug if params.reading_list else "",
    }
    for (name, key), value in chosen.items():
        for item in getattr(facets, name):
            item.selected = item.value == value
            item.change = {key: None if item.selected else item.value}
    year = params.year_text
    decades = facets.decades
    for item in decades:
        item.selected = item.value == year
        item.change = {"year": None if item.selected else item.value}
    facets.decade_items = decades
    one_year = params.year_from if params.year_from == params.year_to else None
    facets.year_chart = YearChart.from_counts(facets.years, selected=one_year)


def active_chips(params: SearchParams) -> list[Chip]:
    chips = []
    if params.q:
        chips.append(Chip(f"“{params.q}”", {"q": None}, keeps_query_box=False))
    slugs = [topic.slug for topic in params.topics]
    for topic in params.topics:
        chips.append(Chip(f"Topic: {topic.name}", {"topic": [s for s in slugs if s != topic.slug]}))
    if params.tier:
        chips.append(Chip(f"Tier: {params.tier.name}", {"tier": None}))
    if params.kind:
        chips.append(Chip(f"Kind: {Source.Kind(params.kind).label}", {"kind": None}))
    if params.reading_list:
        chips.append(Chip(f"List: {params.reading_list.title}", {"list": None}))
    if params.year_from is not None:
        chips.append(Chip(f"Year: {params.year_text.replace('-', '\u2013')}", {"year": None}))
    return chips


def tell_apart(sources: list[Source]) -> None:
    """Give cards that share a title what tells them apart: the kind, and the host of a
    repository ("SGLang (Paper)", "SGLang (Repository, github.com)").

    It goes into the card's label (its marked title), which the remembered cards are keyed by.
    """
    titles = Counter(source.title.casefold() for source in sources)
    for source in sources:
        if titles[source.title.casefold()] < 2:
            continue
        label = source.get_kind_display()
        host = urlsplit(source.url).hostname or ""
        if source.kind == Source.Kind.REPOSITORY and host:
            label += ", " + host.removeprefix("www.")
        set_marked_title(
            source,
            format_html(
                '{} <span class="title-kind">({})</span>',
                marked_title(source) or source.title,
                label,
            ),
        )


def named_in_part(query: ParsedQuery, using: str) -> list[Suggestion]:
    """The sources all but one word of the query names, most exactly named first."""
    levels = dict(query.named_in_part)
    if not levels:
        return []
    rows = Source.objects.using(using).filter(pk__in=levels).values_list("pk", "title", "slug")
    ranked = sorted(rows, key=lambda row: (-levels[row[0]], row[1], row[0]))
    return [Suggestion(title, slug) for _, title, slug in ranked[:SUGGESTIONS]]


def matching_sources(params: SearchParams, *, limit: int, using: str = "default") -> list[Source]:
    """Every source a search shows (up to `limit`), in the order it shows them, unpaged."""
    backend = backend_for(using)
    query = backend.prepare(parse_query(params.q), using, exact=params.exact)
    matches = backend.matches(params, query, using)
    ids = backend.ordered_ids(matches, chosen_sort(params, query), query)
    return cards(list(ids[:limit]), using)


def search_sources(params: SearchParams, *, using: str = "default") -> SearchPage:
    """Everything the browse-and-search page shows, in a constant number of queries."""
    backend = backend_for(using)
    query = backend.prepare(parse_query(params.q), using, exact=params.exact, widen_later=True)
    matches = backend.matches(params, query, using)
    sort = chosen_sort(params, query)
    facets = backend.facet_counts(matches, sort, query, params.page)
    if widened := backend.widen(query, facets.total, using):
        # Few sources have every word: the page ranks those with only some of them too.
        query = widened
        matches = backend.matches(params, query, using)
        facets = backend.facet_counts(matches, sort, query, params.page)
    # The paginator only does the page arithmetic: the facet query already counted the matches.
    paginator: Paginator[Source] = Paginator((), settings.CATALOG_PAGE_SIZE)
    paginator.count = facets.total
    page = paginator.get_page(params.page)
    if facets.page_ids and page.number == params.page:
        ids = facets.page_ids  # picked by the facet statement
    elif facets.total:
        # A page past the end (shown as the last page), or a backend that does not pick pages.
        ordered = backend.ordered_ids(matches, sort, query)
        ids = list(ordered[page.start_index() - 1 : page.end_index()])
    else:
        ids = []
    # A query that is an identifier (an arXiv id, a DOI…) finds its source first.
    if (identified := identified_source_ids(params.q, using)) and page.number == 1:
        ids = first_on_page(identified, list(ids))
        paginator.count = max(facets.total, len(set(ids)))
    sources = backend.result_cards(ids, query, using)
    tell_apart(sources)
    page.object_list = sources
    suggestions: list[Suggestion] = []
    if not facets.total and not identified and query:
        # A source the query names but for one word ("pmpp book"), then the closest titles
        # across the whole catalog: the filters may be what hid them.
        found = named_in_part(query, using) + backend.suggestions(query, using)
        suggestions = list({s.slug: s for s in found}.values())[:SUGGESTIONS]
        # A corrected word is searched beside the word as typed, so neither found anything:
        # "Showing results for" would announce results there are none of.
        query = replace(query, corrected="")
    topics = (
        nearest_topics(params.q, using) if query and (query.partial or not facets.total) else []
    )
    mark_selected(facets, params)
    return SearchPage(
        page=page,
        facets=facets,
        query=query,
        sort=sort,
        chips=active_chips(params),
        suggestions=suggestions,
        nearest_topics=topics,
    )


def nearest_topics(text: str, using: str) -> list[Topic]:
    """The topics that share the most of the query's meaningful words (stemmed) in their name
    or description, most shared first: where a reader whose words the catalog lacks can start."""
    wanted = set(query_stems(text))
    if not wanted:
        return []
    scored = []
    for topic in Topic.objects.using(using).only("slug", "name", "description", "position"):
        in_name = wanted & set(document_stems(topic.name))
        shared = len(in_name) * 2 + len(wanted & set(document_stems(topic.description)))
        if shared:
            scored.append((-shared, topic.position, topic.name, topic))
    return [topic for *_, topic in sorted(scored, key=lambda row: row[:3])[:NEAREST_TOPICS]]
