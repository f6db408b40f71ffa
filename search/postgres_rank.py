"""The rank stage on PostgreSQL: the order of the search entries a query matched.

A query's words rank by ts_rank with the declared weights times the source's prior (tier,
primary source, age: ranking.py), named sources first. When the any-word match is ranked
(described.py), `fused_rank()` orders everything: each word's score by field and rarity
(`described_score()`), scaled by closeness in meaning, nudged by the prior, the all-words
matches a little ahead. Any other sort reads the entries' columns.
"""

import functools
import re
from typing import Any

from django.contrib.postgres.search import SearchQuery, SearchRank
from django.db.models import Case, F, FloatField, Func, Q, When
from django.db.models.expressions import Combinable, RawSQL

from . import ranking
from .described import DESCRIBED_WEIGHTS, Term, fused_rank, meaning_factor
from .document import LANGUAGE, WEIGHTS, rank_weights
from .equivalents import FORM_WEIGHT
from .models import SearchEntry
from .names import NAMED_BONUS
from .postgres_match import PostgresMatched
from .ranking import double
from .set_keys import KEY_COUNTS, KEYED_SETS
from .shared import Ranked

WEIGHTS_DCBA = rank_weights()
# SourceQuerySet.in_list_order(), from the list positions the entries keep.
LIST_ORDER: tuple[str | Combinable, ...] = (
    *(F(name).asc(nulls_last=True) for name in ("first_list", "first_section", "first_position")),
    "title",
    "pk",
)
# Each sort as extra match columns and an ORDER BY over them, the same order as the ordered
# ids give, so the facet statement can pick the page's ids (facets.PAGE_SQL).
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


# ts_rank of a document with the one query word once, at weight 1.0.
TS_RANK_UNIT = 0.6079271
# A word of a to_tsquery string (not an operator).
WORD = re.compile(r"(\w+)")


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


def rank_expression(matched: PostgresMatched, using: str) -> Combinable:
    """Text rank times the source's prior, or the fused rank when the any-word match is
    ranked, with named sources above everything else."""
    if matched.tsquery is None or matched.ranked is None:
        raise TypeError("only a query with words is ranked by relevance")
    prior = RawSQL(*entry_prior_sql(matched.tier_ids, using), output_field=FloatField())
    rank: Combinable
    if matched.terms:
        rank = fused_rank(
            named=double(0.0),
            all_words=all_words(matched.tsquery),
            described=described_score(matched.terms),
            nudge=cube_root(prior),
            meaning=meaning_sql(matched.nearest),
        )
    else:
        rank = SearchRank(F("document"), matched.ranked, weights=WEIGHTS_DCBA) * prior
    if matched.named:
        # One array lookup however many sources the query names: a CASE arm per named
        # source cost the ORM ~0.1 ms each to build (a rare word can name dozens).
        ids, levels = zip(*matched.named, strict=True)
        bonus = RawSQL(
            'COALESCE((%s::float8[])[array_position(%s::int[], "catalog_search_entry"'
            '."source_id")], 0)',
            ([level * NAMED_BONUS for level in levels], list(ids)),
            output_field=FloatField(),
        )
        rank = rank + bonus
    return rank


def ranked(matched: PostgresMatched, sort: str) -> Ranked:
    """The matches in the page's order, and the facet statement's columns with that order, so
    the one statement that counts the facets picks the page too."""
    rows = matched.rows
    if sort == "relevance":
        rows = rows.annotate(rank=rank_expression(matched, rows.db))
        ordered = rows.order_by(F("rank").desc(), "title", "pk")
    elif sort == "list":
        ordered = rows.order_by(*LIST_ORDER)
    else:
        ordered = rows.order_by(*ranking.ORDERINGS[sort])
    extra, order = PAGE_ORDERS[sort]
    columns = ("source_id", "tier_id", "kind", "year", *KEYED_SETS, *extra)
    return Ranked(
        ids=ordered.values_list("pk", flat=True),
        facet_rows=rows.values_list(*columns),
        columns=("id", *columns[1:]),
        set_counts=KEY_COUNTS,
        page_order=order,
    )


def weighted(query: str, weight: str) -> SearchQuery:
    """`query` (to_tsquery syntax) matched only at `weight` ("key:A <-> value:A")."""
    return SearchQuery(WORD.sub(rf"\1:{weight}", query), search_type="raw", config=LANGUAGE)


def word_rank(query: str) -> Combinable:
    """ts_rank of a word, or of single words in one query, in units of one title occurrence
    (ts_rank divides by the number of words: multiplied back, each counts)."""
    words = query.split(" | ")
    searched = SearchQuery(query, search_type="raw", config=LANGUAGE)
    rank = SearchRank(F("document"), searched, weights=list(DESCRIBED_WEIGHTS))
    return rank * double(len(words) / TS_RANK_UNIT)


def best_field(query: str) -> Case:
    """The weight of the best field `query` matches in (0 where it does not)."""
    fields = sorted(zip(WEIGHTS[::-1], DESCRIBED_WEIGHTS, strict=True), key=lambda f: -f[1])
    return Case(
        When(~Q(document=SearchQuery(query, search_type="raw", config=LANGUAGE)), then=0.0),
        *(When(Q(document=weighted(query, w)), then=double(v)) for w, v in fields),
        default=double(0.0),
        output_field=FloatField(),
    )


def term_score(term: Term) -> Combinable:
    """How well an entry has one word, in units of one title occurrence: 1 for a word once in
    the title, as the SQLite backend scores it, more for repeats; or FORM_WEIGHT of that for
    the forms equivalent to it (`term.word` is the word, then its forms: "kv | key <-> value").

    ts_rank counts each word of a phrase alone ("key" anywhere for "key value"), so a phrase
    form is scored by the best field that has it."""
    word, *forms = term.word.split(" | ")
    singles = [form for form in forms if "<->" not in form]
    phrases = [form for form in forms if "<->" in form]
    others = [word_rank(" | ".join(singles))] if singles else []
    others += [best_field(" | ".join(phrases))] if phrases else []
    if not others:
        return word_rank(word)
    return Func(
        word_rank(word),
        *(other * double(FORM_WEIGHT) for other in others),
        function="GREATEST",
        output_field=FloatField(),
    )


def described_score(terms: tuple[Term, ...]) -> Combinable:
    """Each word's score (term_score()) times its rarity, summed."""
    score: Combinable = double(0.0)
    for term in terms:
        score = score + term_score(term) * double(term.weight)
    return score


def all_words(tsquery: SearchQuery) -> Case:
    """1.0 for an entry the all-words query matches, else 0.0."""
    return Case(
        When(Q(document=tsquery), then=double(1.0)), default=double(0.0), output_field=FloatField()
    )


def cube_root(expression: Combinable) -> Func:
    """described.nudge() in SQL."""
    return Func(expression, function="cbrt", output_field=FloatField())
