"""The PostgreSQL backend: full-text search over the search entries' weighted documents.

Websearch syntax, prefix matching on the last word, typo correction against a vocabulary table,
rank by the declared weights, snippets by ts_headline in the same statement as the cards.
"""

import functools
from dataclasses import dataclass, field
from typing import Any, TypedDict

from django.contrib.postgres.expressions import ArraySubquery
from django.contrib.postgres.search import (
    SearchHeadline,
    SearchQuery,
    SearchRank,
    TrigramWordSimilarity,
)
from django.db.models import F, FloatField, Q, QuerySet
from django.db.models.expressions import Combinable, RawSQL

from catalog.models import Source, Topic

from . import ranking
from .backend import (
    SUGGESTIONS,
    Backend,
    Suggestion,
    cards,
    narrowed,
    plain_cards,
    set_card_text,
    text_annotation,
)
from .corrections import words_query
from .described import (
    THIN,
    Term,
    fused_rank,
    meaning_factor,
    meaningful_words,
    subject_words,
)
from .document import LANGUAGE, rank_weights
from .equivalents import with_forms
from .facets import Facets, facet_counts
from .models import SearchEntry
from .names import NAMED_BONUS, named_sources, names_asked
from .parsing import JOINED_WORD, ParsedQuery, SearchParams
from .postgres_described import (
    NO_COUNTS,
    Counts,
    Draft,
    all_words,
    cube_root,
    described_score,
    widening_query,
)
from .ranking import double
from .semantic import similarities
from .set_keys import KEY_COUNTS, KEYED_SETS
from .snippets import (
    FRAGMENT_DELIMITER,
    SNIPPET_WORDS,
    START_SEL,
    STOP_SEL,
    first_sentence,
    headline_snippet,
    marked_snippet,
)


@dataclass(frozen=True)
class PreparedQuery(ParsedQuery):
    """A query with words, as prepare() returns it: what every search statement needs."""

    tsquery: SearchQuery = field(kw_only=True)
    # What the text rank counts: the words as searched, without their equivalent forms (a
    # phrase form's words would each count, "key" anywhere for "kv"), so a source with the
    # reader's own word comes before one with only an equivalent.
    ranked: SearchQuery = field(kw_only=True)
    tier_ids: tuple[tuple[str, int], ...] = ()  # ((tier slug, id), ...)
    # The any-word match, when the all-words match is thin (described.py): its words, weighted.
    terms: tuple[Term, ...] = ()
    # The words before their counts, when prepare() left these to widen().
    draft: Draft | None = None
    # With the any-word match: the sources nearest the query in meaning ((id, similarity), ...).
    nearest: tuple[tuple[int, float], ...] = ()


def in_place(words: tuple[str, ...], subject: tuple[str, ...], corrected: str) -> str:
    """The corrected subject put back among the words it was taken from, so the notice shows
    the whole query ("attention is all you need", not "attention need"); as corrected when a
    correction joined words."""
    shown = corrected.split()
    if len(shown) != len(subject):
        return corrected
    replaced = iter(shown)
    kept = [word for word in words if word not in subject]
    if kept == list(words):
        return corrected
    return " ".join(next(replaced) if word in subject else word for word in words)


def text_query(query: ParsedQuery, raw: str) -> SearchQuery:
    """The tsquery of `raw` (to_tsquery syntax), or of the query's text as typed when there is
    none (operators: websearch syntax)."""
    websearch = SearchQuery(query.text, search_type="websearch", config=LANGUAGE)
    if not raw:
        return websearch
    if JOINED_WORD.search(query.text):
        # "FlashAttention-3" is indexed as one token too, which only the parser finds again.
        return websearch | SearchQuery(raw, search_type="raw", config=LANGUAGE)
    # A plain tsquery the planner can estimate: no redundant alternatives.
    return SearchQuery(raw, search_type="raw", config=LANGUAGE)


def prepared(query: ParsedQuery) -> PreparedQuery:
    """`query` as PostgresBackend.prepare() returned it, for a query with words."""
    if not isinstance(query, PreparedQuery):
        raise TypeError("a query with words must come from PostgresBackend.prepare()")
    return query


@functools.lru_cache(maxsize=16)
def entry_prior_sql(tier_ids: tuple[tuple[str, int], ...], using: str) -> tuple[str, list[Any]]:
    """ranking.prior_expression() over search entries, compiled once per tier mapping: composing
    its CASE expressions cost the ORM ~0.7 ms a search, more than the rest of the statement."""
    query = (
        SearchEntry.objects.using(using)
        .annotate(prior=ranking.prior_expression(dict(tier_ids)))
        .query
    )
    sql, params = query.get_compiler(using).compile(query.annotations["prior"])
    return sql, list(params)


def meaning_sql(nearest: tuple[tuple[int, float], ...]) -> Combinable | float:
    """described.meaning_factor() of each entry's source: one array lookup, as the names'
    bonus is; 1 for a source not among the nearest."""
    if not nearest:
        return 1.0
    ids, similarity = zip(*nearest, strict=True)
    return RawSQL(
        'COALESCE((%s::float8[])[array_position(%s::int[], "catalog_search_entry"."source_id")],'
        " 1.0)",
        ([meaning_factor(value) for value in similarity], list(ids)),
        output_field=FloatField(),
    )


class HeadlineMarkers(TypedDict):
    start_sel: str
    stop_sel: str
    config: str


type Entries = QuerySet[SearchEntry]


class PostgresBackend(Backend[Entries]):
    """Websearch syntax, prefix on the last word, corrected typos, weighted rank."""

    WEIGHTS = rank_weights()

    # SourceQuerySet.in_list_order(), from the list positions the entries keep.
    LIST_ORDER: tuple[str | Combinable, ...] = (
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

    def prepare(
        self, query: ParsedQuery, using: str, *, exact: bool = False, widen_later: bool = False
    ) -> ParsedQuery:
        if not query:
            return query
        raw, typed, corrected, unknown = "", "", "", False
        plain = not query.uses_operators
        texts, parts = names_asked(query.text, query.words) if plain else ([], [])
        found = named_sources(texts, using, parts=parts)
        # "how does speculative decoding work" requires the subject, not the filler.
        subject = subject_words(query.words)
        if plain and not exact:
            raw, typed, corrected, unknown = words_query(subject, using)
            if found.levels:
                # The reader typed a name the catalog has ("TPUv4"): nothing to correct.
                raw, corrected = typed, ""
        if corrected:
            corrected = in_place(query.words, subject, corrected)
        draft = Draft(
            query=query,
            subject=subject,
            raw=raw,
            typed=typed,
            corrected=corrected,
            # A correction of known words is weighed against the words as typed.
            weigh=typed if corrected and not unknown else "",
            found=found,
            # "Search instead for" (exact) searches the typed words only: no any-word match.
            words=meaningful_words(subject) if query.may_widen and not exact else (),
        )
        if widen_later and draft.may_defer:
            # Most pages of several words are not thin: the counts wait for the page to say so.
            return self._settled(draft, NO_COUNTS, using, deferred=True)
        return self._settled(draft, draft.counts(using), using)

    def widen(self, query: ParsedQuery, shown: int, using: str) -> ParsedQuery | None:
        if not isinstance(query, PreparedQuery) or query.draft is None:
            return None
        # The page counted the all-words matches and the named sources together (some of the
        # named ones may match every word too): past THIN without them it cannot be thin.
        if shown - len(query.named) >= THIN:
            return None
        widened = self._settled(query.draft, query.draft.counts(using), using)
        return widened if widened.partial else None

    def _settled(
        self, draft: Draft, found_counts: Counts, using: str, *, deferred: bool = False
    ) -> PreparedQuery:
        """The query as searched once the counts are known, or as if the match were not thin
        when they are `deferred` to widen()."""
        query, raw, corrected = draft.query, draft.raw, draft.corrected
        named, strict = draft.found.levels, found_counts.strict
        if draft.weigh and strict <= 2 * found_counts.typed:
            # Known words read as others find no clearly more than as typed: they stand. (A word
            # the catalog never used is a typo, corrected and announced as before.)
            raw, corrected, strict = draft.typed, "", found_counts.typed
        # The any-word match, when the all-words match is thin and it adds sources.
        widens = strict < THIN and len(draft.words) >= 2 and found_counts.any > strict
        terms = found_counts.terms if widens else ()
        if corrected:
            named = draft.named_as_corrected(using)
            if terms and not strict and not named:
                # No source has every word even as corrected, nor does the correction name one:
                # the partial matches are the typed words', and nothing is announced.
                corrected = ""
        if terms and not named and not strict:
            # "hf transformers": the source all but one word names leads the partial matches
            # when no source has every word.
            named = draft.found.in_part
        return PreparedQuery(
            **{
                **query.__dict__,
                "corrected": corrected,
                "named": tuple(named.items()),
                "named_in_part": tuple(draft.found.in_part.items()),
                "partial": bool(terms),
                "complete": strict,
            },
            tsquery=text_query(query, with_forms(raw, draft.subject)),
            ranked=text_query(query, raw),
            tier_ids=tuple(draft.found.tiers.items()),
            terms=terms,
            draft=draft if deferred else None,
            nearest=tuple(similarities(query.text, using).items()) if terms else (),
        )

    def matches(self, params: SearchParams, query: ParsedQuery, using: str) -> Entries:
        """Search entries, not sources: narrow rows for counting and ranking."""
        entries = narrowed(
            SearchEntry.objects.using(using), params, in_topic=self._in_topic, source_id="source_id"
        )
        if not query:
            return entries
        found = Q(document=prepared(query).tsquery)
        if terms := prepared(query).terms:
            widened = Q(document=widening_query(terms))
            if query.complete and query.named_in_part:
                # "flash attention hopper" found FlashAttention-3: FlashAttention without the
                # word that narrowed it is what the reader refined away.
                widened &= ~Q(source_id__in=[pk for pk, _ in query.named_in_part])
            found |= widened
        if query.named:
            # A name that is not in the text (an acronym of the title) still finds its source.
            found |= Q(source_id__in=[pk for pk, _ in query.named])
        return entries.filter(found)

    @staticmethod
    def _in_topic(topic: Topic) -> Q:
        family = Topic.objects.filter(Q(pk=topic.pk) | Q(parent=topic.pk)).values("pk")
        return Q(topic_ids__overlap=ArraySubquery(family))

    def _rank(self, query: PreparedQuery, using: str) -> Combinable:
        """Text rank times the source's prior, or the fused rank when the any-word match is
        ranked, with named sources above everything else."""
        prior = RawSQL(*entry_prior_sql(query.tier_ids, using), output_field=FloatField())
        rank: Combinable
        if query.terms:
            rank = fused_rank(
                named=double(0.0),
                all_words=all_words(query.tsquery),
                described=described_score(query.terms),
                nudge=cube_root(prior),
                meaning=meaning_sql(query.nearest),
            )
        else:
            rank = SearchRank(F("document"), query.ranked, weights=self.WEIGHTS) * prior
        if query.named:
            # One array lookup however many sources the query names: a CASE arm per named
            # source cost the ORM ~0.1 ms each to build (a rare word can name dozens).
            ids, levels = zip(*query.named, strict=True)
            bonus = RawSQL(
                'COALESCE((%s::float8[])[array_position(%s::int[], "catalog_search_entry"'
                '."source_id")], 0)',
                ([level * NAMED_BONUS for level in levels], list(ids)),
                output_field=FloatField(),
            )
            rank = rank + bonus
        return rank

    def by_relevance(self, matches: Entries, query: ParsedQuery) -> Entries:
        return matches.alias(rank=self._rank(prepared(query), matches.db)).order_by(
            F("rank").desc(), "title", "pk"
        )

    def in_list_order(self, matches: Entries) -> Entries:
        return matches.order_by(*self.LIST_ORDER)

    def facet_counts(self, matches: Entries, sort: str, query: ParsedQuery, page: int) -> Facets:
        """Facets and the page's ids, from one scan of the matches.

        Ranking needs every match's document, as counting does: one statement reads them once
        (at 20,000 matches a second bitmap scan costs about as much as all the counting). The
        other sorts read columns of the entries, so their page comes from the same statement.
        """
        extra, order = self.PAGE_ORDERS[sort]
        if sort == "relevance":
            matches = matches.annotate(rank=self._rank(prepared(query), matches.db))
        columns = ("source_id", "tier_id", "kind", "year", *KEYED_SETS, *extra)
        names = ("id", *columns[1:])
        return facet_counts(matches.values_list(*columns), names, KEY_COUNTS, page=(page, order))

    def result_cards(self, ids: list[int], query: ParsedQuery, using: str) -> list[Source]:
        """The page's cards; with a query, their snippets come in the same statement."""
        if not query:
            return plain_cards(ids, using)
        tsquery = prepared(query).tsquery
        if terms := prepared(query).terms:
            tsquery = tsquery | widening_query(terms)
        marked = HeadlineMarkers(start_sel=START_SEL, stop_sel=STOP_SEL, config=LANGUAGE)
        sources = cards(
            ids,
            using,
            headline=SearchHeadline(
                "summary",
                tsquery,
                max_words=SNIPPET_WORDS // 2,
                min_words=SNIPPET_WORDS // 4,
                # ts_headline's ShortWord is a number of characters; django-stubs types it str.
                short_word=2,  # type: ignore[arg-type]
                max_fragments=2,
                fragment_delimiter=FRAGMENT_DELIMITER,
                **marked,
            ),
            title_headline=SearchHeadline("title", tsquery, highlight_all=True, **marked),
        )
        for source in sources:
            summary_headline = text_annotation(source, "headline") or ""
            set_card_text(
                source,
                snippet=headline_snippet(summary_headline, source.summary)
                or first_sentence(source.summary),
                marked_title=marked_snippet(text_annotation(source, "title_headline") or ""),
            )
        return sources

    def suggestions(self, query: ParsedQuery, using: str) -> list[Suggestion]:
        rows = (
            Source.objects.using(using)
            .published()
            .filter(title__trigram_word_similar=query.text)
            .annotate(similarity=TrigramWordSimilarity(query.text, "title"))
            .order_by("-similarity", "title")
            .values_list("title", "slug")[:SUGGESTIONS]
        )
        return [Suggestion(title, slug) for title, slug in rows]
