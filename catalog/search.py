"""Search and browse for sources: one interface, a backend per database vendor.

`search_sources(params)` is all a view needs. It filters the published catalog, matches the query
through the backend for the connection's vendor, counts facets in one query, orders, paginates and
adds snippets. PostgreSQL gets full-text search over a weighted document kept by triggers (migration
0003); other databases get "every word required, title matches first".
"""

import difflib
import itertools
import re
from dataclasses import dataclass, field
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.postgres.expressions import ArraySubquery
from django.contrib.postgres.search import (
    SearchHeadline,
    SearchQuery,
    SearchRank,
    TrigramWordSimilarity,
)
from django.core.paginator import Paginator
from django.db import connections
from django.db.models import Case, F, FloatField, IntegerField, Q, Value, When
from django.utils.html import escape, format_html
from django.utils.safestring import mark_safe

from .models import ListEntry, ListSection, ReadingList, SearchEntry, Source, Tier, Topic

MAX_QUERY_LENGTH = 200
MAX_WORDS = 16
SUGGESTIONS = 3
SNIPPET_WORDS = 30
# Markers ts_headline puts around matches; control characters never occur in catalog text,
# so the whole headline can be escaped first and the markers turned into <mark> afterwards.
START_SEL, STOP_SEL = "\x02", "\x03"

TOKEN = re.compile(r'(-?)"([^"]*)"?|(\S+)')
WORD = re.compile(r"\w+")
JOINED_WORD = re.compile(r"\w[^\w\s\"]+\w")
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


# -- The query the reader typed -----------------------------------------------------------------


@dataclass(frozen=True)
class ParsedQuery:
    text: str = ""
    words: tuple = ()
    phrases: tuple = ()
    excluded: tuple = ()
    any_of: bool = False

    def __bool__(self):
        return bool(self.words or self.phrases)

    @property
    def uses_operators(self):
        """Quotes, exclusions or "or": the reader is being precise, so no guessing is added."""
        return bool(self.phrases or self.excluded or self.any_of)

    @property
    def highlight_words(self):
        return tuple(dict.fromkeys([*self.words, *(w for p in self.phrases for w in p.split())]))


def clean_query_text(raw):
    """The query as it will be searched: control characters out, whitespace collapsed, capped."""
    text = " ".join(CONTROL.sub(" ", raw or "").split())
    return text[:MAX_QUERY_LENGTH].strip(), len(text) > MAX_QUERY_LENGTH


def parse_query(text):
    """Words, "quoted phrases", -exclusions and `or`, reduced to plain word characters.

    Everything that is not a word character is dropped here, so `&|!:*()` and quotes can never
    reach tsquery syntax, and unbalanced quotes simply run to the end of the query.
    """
    words, phrases, excluded, any_of = [], [], [], False
    for negated, phrase, bare in TOKEN.findall(text):
        if bare:
            if bare.lower() == "or" and words:
                any_of = True
                continue
            negated, phrase = bare.startswith("-") and len(bare) > 1, bare
            if not negated:
                words.extend(w.lower() for w in WORD.findall(phrase))
                continue
        tokens = [w.lower() for w in WORD.findall(phrase)]
        if not tokens:
            continue
        if negated:
            excluded.append(" ".join(tokens))
        elif len(tokens) == 1:
            words.append(tokens[0])
        else:
            phrases.append(" ".join(tokens))
    return ParsedQuery(
        text=text,
        words=tuple(dict.fromkeys(words))[:MAX_WORDS],
        phrases=tuple(phrases)[:MAX_WORDS],
        excluded=tuple(excluded)[:MAX_WORDS],
        any_of=any_of,
    )


# -- What the page asks for -----------------------------------------------------------------------


SORTS = {
    "list": "List order",
    "newest": "Newest first",
    "title": "Title A to Z",
    "year": "Year, newest first",
}


@dataclass
class SearchParams:
    q: str = ""
    topics: list = field(default_factory=list)  # Topic objects, all required
    tier: Tier | None = None
    kind: str = ""
    reading_list: ReadingList | None = None
    year_from: int | None = None
    year_to: int | None = None
    sort: str = ""
    page: int = 1

    @property
    def year_text(self):
        if self.year_from is None:
            return ""
        if self.year_from == self.year_to:
            return str(self.year_from)
        return f"{self.year_from}-{self.year_to}"

    @property
    def filter_count(self):
        chosen = (self.tier, self.kind, self.reading_list, self.year_from is not None)
        return len(self.topics) + sum(bool(value) for value in chosen)

    @property
    def has_filters(self):
        return bool(self.filter_count)


def narrowed(rows, params, *, in_topic, source_id="pk"):
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


# Orders that do not depend on the query; sources and search entries both have these fields.
ORDERINGS = {
    "newest": ("-created", "-pk"),
    "title": ("title", "pk"),
    "year": (F("year").desc(nulls_last=True), "title", "pk"),
}


# -- Backends ------------------------------------------------------------------------------------


class Backend:
    """What both backends share: given matches, the ids of the sources in the chosen order."""

    def result_cards(self, ids, query, using):
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

    def ordered_ids(self, matches, sort, query):
        if sort == "relevance":
            ordered = self.by_relevance(matches, query)
        elif sort == "list":
            ordered = self.in_list_order(matches)
        else:
            ordered = matches.order_by(*ORDERINGS[sort])
        return ordered.values_list("pk", flat=True)


class ContainsBackend(Backend):
    """Every word must appear somewhere; sources with the words in their title come first."""

    FIELDS = ("title", "authors", "aliases", "venue", "summary")

    def prepare(self, query, using):
        return query

    def matches(self, params, query, using):
        """The published sources the page shows, before ordering."""
        sources = narrowed(Source.objects.using(using).published(), params, in_topic=self._in_topic)
        return self.match(sources, query) if query else sources

    @staticmethod
    def _in_topic(topic):
        # A subquery, not a join: joins would repeat rows and break the facet counts.
        tagged = Source.topics.through.objects.filter(Q(topic=topic) | Q(topic__parent=topic))
        return Q(pk__in=tagged.values("source_id"))

    def in_list_order(self, matches):
        return matches.in_list_order()

    def facet_counts(self, matches, sort, query, page):
        columns = ("pk", "tier_id", "kind", "year")
        return facet_counts(matches.values_list(*columns), MATCH_COLUMNS, JOIN_COUNTS)

    def _contains(self, text):
        condition = Q()
        for name in self.FIELDS:
            condition |= Q(**{f"{name}__icontains": text})
        topics = Source.topics.through.objects.filter(topic__name__icontains=text)
        return condition | Q(pk__in=topics.values("source_id"))

    def match(self, sources, query):
        groups = [self._contains(text) for text in (*query.words, *query.phrases)]
        if query.any_of:
            condition = Q()
            for group in groups:
                condition |= group
            sources = sources.filter(condition)
        else:
            for group in groups:
                sources = sources.filter(group)
        for text in query.excluded:
            sources = sources.exclude(self._contains(text))
        return sources

    def by_relevance(self, sources, query):
        title_hits = sum(
            (
                Case(When(title__icontains=text, then=1), default=0, output_field=IntegerField())
                for text in (*query.words, *query.phrases)
            ),
            Value(0),
        )
        return sources.alias(
            named=self._named(query.text.strip().strip('"')),
            title_hits=title_hits,
            primary=Case(When(basis=Source.Basis.NONE, then=0), default=1),
        ).order_by("-named", "-title_hits", "-primary", "title", "pk")

    def _named(self, text):
        """1 when the whole query is the source's title or one of its aliases ("FP8", "GQA")."""
        condition = (
            Q(title__iexact=text)
            | Q(aliases__iexact=text)
            | Q(aliases__istartswith=f"{text},")
            | Q(aliases__icontains=f", {text},")
            | Q(aliases__iendswith=f", {text}")
        )
        return Case(When(condition, then=1), default=0, output_field=IntegerField())

    def add_snippets(self, sources, query):
        pattern = words_pattern(query.highlight_words)
        for source in sources:
            source.snippet = plain_snippet(source.summary, pattern)
            source.marked_title = marked_words(source.title, pattern) if pattern else ""

    def suggestions(self, query, using):
        titles = dict(Source.objects.using(using).published().values_list("title", "slug"))
        by_lower = {title.lower(): title for title in titles}
        close = difflib.get_close_matches(
            query.text.lower(), list(by_lower), n=SUGGESTIONS, cutoff=0.4
        )
        return [Suggestion(by_lower[t], titles[by_lower[t]]) for t in close]


@dataclass(frozen=True)
class PreparedQuery(ParsedQuery):
    tsquery: object = None


class PostgresBackend(Backend):
    """Full-text search: websearch syntax, prefix on the last word, corrected typos, weighted rank.

    Words the catalog has never used are corrected against a vocabulary table (trigram index, a
    few hundred to a few thousand rows) before searching: that costs well under a millisecond,
    where trigram similarity over every title costs tens of milliseconds at 100,000 sources.
    """

    # Title (A) counts far more than anything else: readers search for names.
    WEIGHTS = [0.05, 0.2, 0.4, 1.0]
    PRIMARY_BOOST = 1.3

    def prepare(self, query, using):
        if not query:
            return query
        websearch = SearchQuery(query.text, search_type="websearch", config="english")
        raw = "" if query.uses_operators else self._words_query(query.words, using)
        if not raw:
            tsquery = websearch
        elif JOINED_WORD.search(query.text):
            # "FlashAttention-3" is indexed as one token too, which only the parser finds again.
            tsquery = websearch | SearchQuery(raw, search_type="raw", config="english")
        else:
            # A plain tsquery the planner can estimate: no redundant alternatives.
            tsquery = SearchQuery(raw, search_type="raw", config="english")
        return PreparedQuery(**query.__dict__, tsquery=tsquery)

    def _words_query(self, words, using):
        """A to_tsquery string built only from word characters, so it is always valid syntax."""
        compounds = [a + b for a, b in itertools.pairwise(words)]
        known, starts = self._corrections([*words, *compounds], using)

        def alternatives(i):
            word = words[i]
            options = [word]
            corrected = known.get(word)
            if i == len(words) - 1 and len(word) >= 3 and corrected != word and word in starts:
                # Still being typed: a word the catalog does not have may be the start of one.
                options.append(f"{word}:*")
            if corrected and corrected != word:
                options.append(corrected)
            return " | ".join(options)

        terms, i = [], 0
        while i < len(words):
            compound = compounds[i] if i < len(compounds) else None
            if compound and known.get(compound) == compound:
                terms.append(f"(({alternatives(i)}) & ({alternatives(i + 1)}) | {compound})")
                i += 2
            else:
                terms.append(f"({alternatives(i)})")
                i += 1
        return " & ".join(terms)

    def _corrections(self, words, using):
        """({word: the vocabulary word it most likely means}, {words that start a known word}).

        A prefix alternative costs a third of the ranking time of a one-word query, so it is
        added only where it can match: where some catalog word starts like the typed one (less
        its last letter, which stemming may have changed: "happy" is indexed as "happi").
        """
        candidates = [w for w in dict.fromkeys(words) if len(w) >= 2 and not w.isdigit()]
        if not candidates:
            return {}, set()
        with connections[using].cursor() as cursor:
            cursor.execute(
                """
                SELECT q.w, CASE
                  WHEN EXISTS (SELECT 1 FROM catalog_search_word v WHERE v.word = q.w) THEN q.w
                  WHEN length(q.w) >= 4 THEN (
                    SELECT v.word FROM catalog_search_word v WHERE v.word %% q.w
                    ORDER BY v.word <-> q.w, v.word LIMIT 1)
                END,
                EXISTS (SELECT 1 FROM catalog_search_word v
                        WHERE starts_with(v.word, left(q.w, -1)) AND v.word <> q.w)
                FROM unnest(%s::text[]) AS q(w)
                """,
                [candidates],
            )
            rows = cursor.fetchall()
        known = {word: best for word, best, _ in rows if best}
        return known, {word for word, _, starts in rows if starts}

    def matches(self, params, query, using):
        """Search entries (migration 0006), not sources: narrow rows for counting and ranking."""
        entries = narrowed(
            SearchEntry.objects.using(using), params, in_topic=self._in_topic, source_id="source_id"
        )
        return entries.filter(document=query.tsquery) if query else entries

    @staticmethod
    def _in_topic(topic):
        family = Topic.objects.filter(Q(pk=topic.pk) | Q(parent=topic.pk)).values("pk")
        return Q(topic_ids__overlap=ArraySubquery(family))

    def _rank(self, query):
        boost = Case(
            When(is_primary=True, then=Value(self.PRIMARY_BOOST)),
            default=Value(1.0),
            output_field=FloatField(),
        )
        return SearchRank(F("document"), query.tsquery, weights=self.WEIGHTS) * boost

    def by_relevance(self, matches, query):
        return matches.alias(rank=self._rank(query)).order_by(F("rank").desc(), "title", "pk")

    def in_list_order(self, matches):
        return matches.order_by(*self.LIST_ORDER)

    # SourceQuerySet.in_list_order(), from the positions the entries keep (migration 0007).
    LIST_ORDER = (
        *(
            F(name).asc(nulls_last=True)
            for name in ("first_list", "first_section", "first_position")
        ),
        "title",
        "pk",
    )
    # Each sort as extra match columns and an ORDER BY over them, the same order as
    # ordered_ids() gives, so the facet statement can pick the page's ids (PAGE_SQL).
    PAGE_ORDERS = {
        "relevance": (("title", "rank"), "m.rank DESC, m.title, m.id"),
        "list": (
            ("first_list", "first_section", "first_position", "title"),
            "m.first_list NULLS LAST, m.first_section NULLS LAST, m.first_position NULLS LAST, "
            "m.title, m.id",
        ),
        "newest": (("created",), "m.created DESC, m.id DESC"),
        "title": (("title",), "m.title, m.id"),
        "year": (("title",), "m.year DESC NULLS LAST, m.title, m.id"),
    }

    def facet_counts(self, matches, sort, query, page):
        """Facets and the page's ids, from one scan of the matches.

        Ranking needs every match's document, as counting does: one statement reads them once
        (at 20,000 matches a second bitmap scan costs about as much as all the counting). The
        other sorts read columns of the entries, so their page comes from the same statement.
        """
        extra, order = self.PAGE_ORDERS[sort]
        if sort == "relevance":
            matches = matches.annotate(rank=self._rank(query))
        columns = ("source_id", "tier_id", "kind", "year", "topic_ids", "list_ids", *extra)
        names = ("id", *columns[1:])
        return facet_counts(matches.values_list(*columns), names, ARRAY_COUNTS, page=(page, order))

    def result_cards(self, ids, query, using):
        """The page's cards; with a query, their snippets come in the same statement."""
        if not query:
            return super().result_cards(ids, query, using)
        marked = {"start_sel": START_SEL, "stop_sel": STOP_SEL, "config": "english"}
        sources = cards(
            ids,
            using,
            headline=SearchHeadline(
                "summary",
                query.tsquery,
                max_words=SNIPPET_WORDS,
                min_words=12,
                short_word=2,
                **marked,
            ),
            title_headline=SearchHeadline("title", query.tsquery, highlight_all=True, **marked),
        )
        for source in sources:
            source.snippet = marked_snippet(source.headline or "")
            source.marked_title = marked_snippet(source.title_headline or "")
        return sources

    def suggestions(self, query, using):
        rows = (
            Source.objects.using(using)
            .published()
            .filter(title__trigram_word_similar=query.text)
            .annotate(similarity=TrigramWordSimilarity(query.text, "title"))
            .order_by("-similarity", "title")
            .values_list("title", "slug")[:SUGGESTIONS]
        )
        return [Suggestion(title, slug) for title, slug in rows]


def backend_for(using):
    if connections[using].vendor == "postgresql":
        return PostgresBackend()
    return ContainsBackend()


# -- Snippets ------------------------------------------------------------------------------------


def marked_snippet(headline):
    """Escape a ts_headline result, then turn its match markers into <mark> ("" if none)."""
    if START_SEL not in headline:
        return ""
    kept = {START_SEL, STOP_SEL}
    text = escape(CONTROL.sub(lambda m: m.group() if m.group() in kept else "", headline))
    # escape() leaves the markers alone, so every other character of the data is escaped here.
    text = text.replace(START_SEL, "<mark>").replace(STOP_SEL, "</mark>")
    return mark_safe(text)


def words_pattern(words):
    words = [w for w in words if len(w) > 1]  # marking every "a" helps nobody
    if not words:
        return None
    alternatives = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    return re.compile(alternatives, re.IGNORECASE)


def marked_words(text, pattern):
    """The text escaped, with every match of pattern wrapped in <mark> ("" if none)."""
    pieces, last = [], 0
    for found in pattern.finditer(text):
        pieces.append(escape(text[last : found.start()]))
        pieces.append(format_html("<mark>{}</mark>", found.group()))
        last = found.end()
    if not last:
        return ""
    pieces.append(escape(text[last:]))
    return mark_safe("".join(str(p) for p in pieces))


def plain_snippet(text, pattern):
    """A window of the summary around the first match, matched words wrapped in <mark>."""
    first = pattern.search(text) if text and pattern else None
    if not first:
        return ""
    tokens = text.split()
    start = max(len(text[: first.start()].split()) - 8, 0)
    window = " ".join(tokens[start : start + SNIPPET_WORDS])
    prefix = "… " if start else ""
    suffix = " …" if start + SNIPPET_WORDS < len(tokens) else ""
    return mark_safe(prefix + marked_words(window, pattern) + suffix)


# -- Facets --------------------------------------------------------------------------------------


@dataclass
class FacetItem:
    value: str
    label: str
    count: int
    selected: bool = False
    # How the URL changes when this item is clicked: it toggles the filter.
    change: dict = field(default_factory=dict)
    href: str = ""  # the URL's query string with that change: see Facets.link()


def query_string(base, change):
    """`?` and `base` ({key: [values]}) with `change` applied the way `{% querystring %}`
    applies a mapping: None removes the key, a list replaces its values, anything else sets it."""
    merged = dict(base)
    for key, value in change.items():
        if value is None:
            merged.pop(key, None)
        elif isinstance(value, list):
            merged[key] = [v for v in value if v is not None]
        else:
            merged[key] = [value]
    return "?" + urlencode([(key, value) for key, values in merged.items() for value in values])


@dataclass(frozen=True)
class Suggestion:
    title: str
    slug: str


@dataclass
class Facets:
    topics: list = field(default_factory=list)
    tiers: list = field(default_factory=list)
    kinds: list = field(default_factory=list)
    lists: list = field(default_factory=list)
    years: dict = field(default_factory=dict)
    decade_items: list = field(default_factory=list)
    # The requested page's source ids, when the facet statement could choose them too.
    page_ids: list | None = None

    @property
    def total(self):
        # Every source has exactly one tier, so the tier counts add up to the number of matches.
        return sum(item.count for item in self.tiers)

    def link(self, current):
        """Give every item its `href`: the `current` QueryDict with the item's change and no
        page, as `{% querystring current item.change page=None %}` writes it. One base for
        the ~50 links of a page instead of a QueryDict built per link (~1 ms a page)."""
        base = {key: values for key, values in current.lists() if key != "page"}
        for items in (self.decade_items, self.topics, self.tiers, self.kinds, self.lists):
            for item in items:
                item.href = query_string(base, item.change)

    @property
    def decades(self):
        counts = {}
        for year, count in self.years.items():
            counts[year - year % 10] = counts.get(year - year % 10, 0) + count
        return [
            FacetItem(f"{decade}-{decade + 9}", f"{decade}s", count)
            for decade, count in sorted(counts.items(), reverse=True)
        ]

    year_chart: object = None


@dataclass(frozen=True)
class Bar:
    year: int
    count: int
    x: int
    y: int
    height: int
    selected: bool = False


@dataclass(frozen=True)
class YearChart:
    """Geometry for a small SVG bar chart, computed here so the template only prints numbers."""

    bars: tuple
    width: int
    height: int
    first: int
    last: int

    BAR, GAP, HEIGHT = 8, 2, 48

    @classmethod
    def from_counts(cls, counts, selected=None):
        if not counts:
            return None
        first, last = min(counts), max(counts)
        peak = max(counts.values())
        bars = []
        for i, year in enumerate(range(first, last + 1)):
            count = counts.get(year, 0)
            height = max(round(count / peak * cls.HEIGHT), 1 if count else 0)
            x = i * (cls.BAR + cls.GAP)
            bars.append(Bar(year, count, x, cls.HEIGHT - height, height, year == selected))
        return cls(tuple(bars), len(bars) * (cls.BAR + cls.GAP), cls.HEIGHT, first, last)


# The matches are found once (m), then folded into at most tiers x kinds x years groups (g), so
# the three one-column facets add up a few hundred group counts instead of re-reading every match.
FACET_SQL = """
WITH m ({columns}) AS ({matches}),
g (tier_id, kind, year, n) AS (
  SELECT tier_id, kind, year, COUNT(*) FROM m GROUP BY tier_id, kind, year)
SELECT 'tier', t.slug, t.name, SUM(g.n) FROM g JOIN {tier} t ON t.id = g.tier_id
  GROUP BY t.slug, t.name
UNION ALL
SELECT 'kind', g.kind, g.kind, SUM(g.n) FROM g GROUP BY g.kind
UNION ALL
SELECT 'year', CAST(g.year AS VARCHAR(10)), '', SUM(g.n) FROM g WHERE g.year IS NOT NULL
  GROUP BY g.year
UNION ALL
SELECT 'topic', tp.slug, tp.name, counted.n FROM ({topic_counts}) counted
  JOIN {topic} tp ON tp.id = counted.topic_id
UNION ALL
SELECT 'list', rl.slug, rl.title, counted.n FROM ({list_counts}) counted
  JOIN {reading_list} rl ON rl.id = counted.list_id
"""
# Topic and list counts: through the join tables, or (search entries) from each row's own
# arrays, grouped by the array first: sources share a few thousand topic sets and a handful of
# list sets at most, so only those are unnested.
JOIN_COUNTS = {
    "topic_counts": """SELECT st.topic_id, COUNT(*) AS n
  FROM m JOIN {source_topics} st ON st.source_id = m.id GROUP BY st.topic_id""",
    "list_counts": """SELECT s.reading_list_id AS list_id, COUNT(DISTINCT m.id) AS n
  FROM m JOIN {entry} e ON e.source_id = m.id JOIN {section} s ON s.id = e.section_id
  GROUP BY s.reading_list_id""",
}
ARRAY_COUNTS = {
    f"{name}_counts": f"""SELECT x.{name}_id, SUM(sets.n) AS n
  FROM (SELECT {name}_ids, COUNT(*) AS n FROM m GROUP BY {name}_ids) sets
  CROSS JOIN unnest(sets.{name}_ids) AS x({name}_id) GROUP BY x.{name}_id"""
    for name in ("topic", "list")
}
MATCH_COLUMNS = ("id", "tier_id", "kind", "year")
# With a page to pick: one more row, the page's ids in order (an ARRAY of an ordered subquery
# keeps that order).
PAGE_SQL = """
UNION ALL
SELECT 'page', array_to_string(ARRAY(
  SELECT m.id FROM m ORDER BY {order} LIMIT {limit} OFFSET {offset}), ','), '', 0
"""


FACET_LISTS = {"tier": "tiers", "kind": "kinds", "topic": "topics", "list": "lists"}


def facet_counts(matches, columns, counts, page=None):
    """Counts per tier, kind, year, topic and list of the matches, in one query.

    `matches` yields rows of `columns`: source id, tier id, kind, year, then (search entries)
    topic ids, list ids and what the page's order needs. `counts` says how topics and lists are
    counted: JOIN_COUNTS, or ARRAY_COUNTS for rows with the id arrays. One statement over a
    common table expression: the matches are found once, not once per dimension (DESIGN.md §4
    measured ~16 ms for all dimensions at 100k, against ~12 ms each).
    With `page` (a page number and an ORDER BY over `columns`), it also picks that page's ids.
    """
    connection = connections[matches.db]
    inner, params = matches.order_by().query.sql_with_params()
    quote = connection.ops.quote_name
    tables = {
        "tier": quote(Tier._meta.db_table),
        "source_topics": quote(Source.topics.through._meta.db_table),
        "topic": quote(Topic._meta.db_table),
        "entry": quote(ListEntry._meta.db_table),
        "section": quote(ListSection._meta.db_table),
        "reading_list": quote(ReadingList._meta.db_table),
    }
    sql = FACET_SQL
    if page is not None:
        number, order = page
        size = settings.CATALOG_PAGE_SIZE
        sql += PAGE_SQL.format(order=order, limit=size, offset=(number - 1) * size)
    sql = sql.format(
        columns=", ".join(columns),
        matches=inner,
        **{name: part.format(**tables) for name, part in counts.items()},
        **tables,
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    facets = Facets()
    kinds = dict(Source.Kind.choices)
    for dimension, value, label, total in rows:
        count = int(total)  # SUM() of counts is a numeric on PostgreSQL
        if dimension == "page":
            facets.page_ids = [int(pk) for pk in value.split(",") if pk]
        elif dimension == "year":
            facets.years[int(value)] = count
        elif dimension == "kind":
            facets.kinds.append(FacetItem(value, kinds.get(value, value), count))
        else:
            getattr(facets, FACET_LISTS[dimension]).append(FacetItem(value, label, count))
    for name in FACET_LISTS.values():
        getattr(facets, name).sort(key=lambda item: (-item.count, item.label.lower()))
    return facets


# -- The page ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Chip:
    """An active filter; `removal` is the URL change that drops it."""

    label: str
    removal: dict
    keeps_query_box: bool = True


CLEAR_FILTERS = {"topic": None, "tier": None, "kind": None, "list": None, "year": None}


def mark_selected(facets, params):
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


def active_chips(params):
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


@dataclass
class SearchPage:
    page: object
    facets: Facets
    query: ParsedQuery
    sort: str
    chips: list = field(default_factory=list)
    suggestions: list = field(default_factory=list)
    clear_filters: dict = field(default_factory=lambda: dict(CLEAR_FILTERS))


def chosen_sort(params, query):
    sort = params.sort or ("relevance" if query else "list")
    return "list" if sort == "relevance" and not query else sort


def cards(ids, using, **annotations):
    """The page's sources, in the order of `ids`, with what their cards show."""
    found = Source.objects.using(using).for_cards().annotate(**annotations).in_bulk(ids)
    return [found[pk] for pk in ids if pk in found]


def matching_sources(params, *, limit, using="default"):
    """Every source a search shows (up to `limit`), in the order it shows them, unpaged."""
    backend = backend_for(using)
    query = backend.prepare(parse_query(params.q), using)
    matches = backend.matches(params, query, using)
    ids = backend.ordered_ids(matches, chosen_sort(params, query), query)
    return cards(list(ids[:limit]), using)


def search_sources(params, *, using="default"):
    """Everything the browse-and-search page shows, in a constant number of queries."""
    backend = backend_for(using)
    query = backend.prepare(parse_query(params.q), using)
    matches = backend.matches(params, query, using)
    sort = chosen_sort(params, query)
    facets = backend.facet_counts(matches, sort, query, params.page)
    # The paginator only does the page arithmetic: the facet query already counted the matches.
    paginator = Paginator((), settings.CATALOG_PAGE_SIZE)
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
    page.object_list = backend.result_cards(ids, query, using)
    suggestions = []
    if not facets.total and query:
        # Closest titles across the whole catalog: the filters may be what hid them.
        suggestions = backend.suggestions(query, using)
    mark_selected(facets, params)
    return SearchPage(
        page=page,
        facets=facets,
        query=query,
        sort=sort,
        chips=active_chips(params),
        suggestions=suggestions,
    )
