"""The last stage of a search, page: the page of cards the reader sees, and the one interface.

`search_sources(params)` runs the stages in order, each once: the query parsed once
(`params.query`, parsing.py), matched against the catalog (match.py), ranked (rank.py), its
facets counted with the page's ids (facets.py), then the page here: pagination, the cards with
their snippets, and the help a thin or empty page gives (suggestions, nearest topics).
`matching_sources()` gives the same sources unpaged.
"""

from collections import Counter
from dataclasses import dataclass, field, replace
from urllib.parse import urlsplit

from django.conf import settings
from django.core.paginator import Page, Paginator
from django.utils.html import format_html

from catalog.models import Source, Topic

from . import postgres_page, sqlite_page
from .confidence import no_good_match
from .described import document_stems
from .facets import Facets, YearChart, count
from .match import match
from .parsing import SearchParams, chosen_sort
from .postgres_match import PostgresMatched
from .rank import rank
from .shared import SUGGESTIONS, Matched, Suggestion, cards, marked_title, set_marked_title

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
    query: Matched  # the query as searched: corrected, partial, complete
    sort: str
    chips: list[Chip] = field(default_factory=list)
    suggestions: list[Suggestion] = field(default_factory=list)
    # On an empty or thin page: the topics whose name or description shares the most words
    # with the query.
    nearest_topics: list[Topic] = field(default_factory=list)
    clear_filters: dict = field(default_factory=lambda: dict(CLEAR_FILTERS))
    # Nothing in the catalog answers the query well (confidence.py): the page says so.
    no_good_match: bool = False


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


def named_in_part(matched: Matched, using: str) -> list[Suggestion]:
    """The sources all but one word of the query names, most exactly named first."""
    levels = dict(matched.named_in_part)
    if not levels:
        return []
    rows = Source.objects.using(using).filter(pk__in=levels).values_list("pk", "title", "slug")
    ranked = sorted(rows, key=lambda row: (-levels[row[0]], row[1], row[0]))
    return [Suggestion(title, slug) for _, title, slug in ranked[:SUGGESTIONS]]


def matching_sources(params: SearchParams, *, limit: int, using: str = "default") -> list[Source]:
    """Every source a search shows (up to `limit`), in the order it shows them, unpaged."""
    ranked = rank(match(params, using), chosen_sort(params))
    return cards(list(ranked.ids[:limit]), using)


def first_on_page(identified: tuple[int, ...], ids: list[int]) -> list[int]:
    """The page's sources with the identified ones first, each once."""
    return [*identified, *(pk for pk in ids if pk not in identified)]


def result_cards(ids: list[int], matched: Matched, using: str) -> list[Source]:
    if isinstance(matched, PostgresMatched):
        return postgres_page.result_cards(ids, matched, using)
    return sqlite_page.result_cards(ids, matched, using)


def suggestions(matched: Matched, using: str) -> list[Suggestion]:
    """A source the query names but for one word ("pmpp book"), then the closest titles across
    the whole catalog: the filters may be what hid them."""
    if isinstance(matched, PostgresMatched):
        closest = postgres_page.suggestions(matched, using)
    else:
        closest = sqlite_page.suggestions(matched, using)
    found = named_in_part(matched, using) + closest
    return list({s.slug: s for s in found}.values())[:SUGGESTIONS]


def search_sources(params: SearchParams, *, using: str = "default") -> SearchPage:
    """Everything the browse-and-search page shows, in a constant number of queries."""
    matched = match(params, using)
    sort = chosen_sort(params)
    ranked = rank(matched, sort)
    facets = count(ranked, params.page)
    # The paginator only does the page arithmetic: the facet query already counted the matches.
    paginator: Paginator[Source] = Paginator((), settings.CATALOG_PAGE_SIZE)
    paginator.count = facets.total
    page = paginator.get_page(params.page)
    if facets.page_ids is not None and page.number == params.page:
        ids = facets.page_ids  # picked by the facet statement
    elif facets.total:
        # A page past the end (shown as the last page), or a ranking the statement cannot pick.
        ids = list(ranked.ids[page.start_index() - 1 : page.end_index()])
    else:
        ids = []
    # A query that is an identifier (an arXiv id, a DOI…) finds its source first.
    if matched.identified and page.number == 1:
        ids = first_on_page(matched.identified, ids)
        paginator.count = max(facets.total, len(set(ids)))
    # A filtered search may miss what the catalog holds: only a whole-catalog one is judged.
    unanswered = page.number == 1 and not params.has_filters and no_good_match(matched, ids, using)
    sources = result_cards(ids, matched, using)
    tell_apart(sources)
    page.object_list = sources
    found: list[Suggestion] = []
    if not facets.total and not matched.identified and matched:
        found = suggestions(matched, using)
        # A corrected word is searched beside the word as typed, so neither found anything:
        # "Showing results for" would announce results there are none of.
        matched = replace(matched, corrected="")
    topics = (
        nearest_topics(matched, using) if matched and (matched.partial or not facets.total) else []
    )
    mark_selected(facets, params)
    return SearchPage(
        page=page,
        facets=facets,
        query=matched,
        sort=sort,
        chips=active_chips(params),
        suggestions=found,
        nearest_topics=topics,
        no_good_match=unanswered,
    )


def nearest_topics(matched: Matched, using: str) -> list[Topic]:
    """The topics that share the most of the query's meaningful words (stemmed) in their name
    or description, most shared first: where a reader whose words the catalog lacks can start."""
    wanted = set(matched.query.stems)
    if not wanted:
        return []
    scored = []
    for topic in Topic.objects.using(using).only("slug", "name", "description", "position"):
        in_name = wanted & set(document_stems(topic.name))
        shared = len(in_name) * 2 + len(wanted & set(document_stems(topic.description)))
        if shared:
            scored.append((-shared, topic.position, topic.name, topic))
    return [topic for *_, topic in sorted(scored, key=lambda row: row[:3])[:NEAREST_TOPICS]]
