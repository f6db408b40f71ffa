"""The any-word match on PostgreSQL (described.py): one statement of counts, then SQL terms.

`counts()` asks, in one statement, how many entries the all-words query matches (up to THIN:
whether the match is thin; as corrected and as typed up to COMMON when a correction is to be
weighed: whether it finds clearly more), and only when the match is thin, how many entries
there are and each meaningful word's document frequency (up to COMMON: past it a word is
common, and counting further costs time and changes the weights little).
"""

import re
from dataclasses import dataclass, field

from django.contrib.postgres.search import SearchQuery, SearchRank
from django.db import connections
from django.db.models import Case, F, FloatField, Func, Q, When
from django.db.models.expressions import Combinable

from .described import COMMON, DESCRIBED_WEIGHTS, THIN, Term, weighted_terms
from .document import LANGUAGE, WEIGHTS
from .equivalents import FORM_WEIGHT, alternatives, tsquery_alternatives, with_forms
from .names import Named, named_sources
from .parsing import ParsedQuery
from .ranking import double

# Each count stops at COMMON rows: the GIN index gives the rows, and a capped count reads at
# most that many. The entry count comes from the planner's statistics once the table is large
# enough for them to be kept (an exact count of 100,000 entries costs ~10 ms).
COUNTS_SQL = """
WITH strict AS MATERIALIZED (
  SELECT count(*) AS n FROM (SELECT 1 FROM catalog_search_entry
  WHERE document @@ (CASE WHEN %(raw)s = '' THEN websearch_to_tsquery('english', %(text)s)
                     ELSE to_tsquery('english', %(raw)s) END) LIMIT %(strict_cap)s) AS s),
thin AS MATERIALIZED (SELECT n < %(thin)s AS yes FROM strict)
SELECT 'strict', '', n FROM strict
UNION ALL
SELECT 'typed', '', CASE WHEN %(typed)s = '' THEN 0 ELSE (SELECT count(*) FROM (
  SELECT 1 FROM catalog_search_entry WHERE document @@ to_tsquery('english', %(typed)s)
  LIMIT %(cap)s) AS s) END
UNION ALL
SELECT 'any', '', CASE WHEN %(any)s = '' OR NOT (SELECT yes FROM thin) THEN 0 ELSE (
  SELECT count(*) FROM (SELECT 1 FROM catalog_search_entry
  WHERE document @@ to_tsquery('english', %(any)s) LIMIT %(cap)s) AS s) END
UNION ALL
SELECT 'total', '', CASE WHEN NOT (SELECT yes FROM thin) THEN 0 ELSE (
  SELECT CASE WHEN c.reltuples >= 10000 THEN c.reltuples::bigint
  ELSE (SELECT count(*) FROM catalog_search_entry) END
  FROM pg_class c WHERE c.oid = 'catalog_search_entry'::regclass) END
UNION ALL
SELECT 'word', w.term, CASE WHEN NOT (SELECT yes FROM thin) THEN 0 ELSE (
  SELECT count(*) FROM (SELECT 1 FROM catalog_search_entry
  WHERE document @@ to_tsquery('english', w.term) LIMIT %(cap)s) AS s) END
FROM unnest(%(terms)s::text[]) AS w(term)
"""

# ts_rank of a document with the one query word once, at weight 1.0.
TS_RANK_UNIT = 0.6079271
# A word of a to_tsquery string (not an operator).
WORD = re.compile(r"(\w+)")


@dataclass(frozen=True)
class Counts:
    strict: int  # all-words matches (as searched, corrections included), up to COMMON
    typed: int  # the same for the words as typed, when a word was corrected
    any: int  # the entries with any of the meaningful words, up to COMMON
    total: int
    terms: tuple[Term, ...]  # the meaningful words found, weighted


# What a search asks no counts for: as many all-words matches as a common word has.
NO_COUNTS = Counts(strict=COMMON, typed=0, any=0, total=0, terms=())


def counts(raw: str, typed: str, text: str, words: tuple[str, ...], using: str) -> Counts:
    """The counts (see the module), in one statement; none when nothing needs them: one
    meaningful word and no correction to weigh (the any-word match of one word is the
    all-words match)."""
    if len(words) < 2 and not typed:
        return NO_COUNTS
    forms = alternatives(words)
    # A to_tsquery string for each word and the forms that count as it.
    queries = {tsquery_alternatives(word, forms.get(word, ())): word for word in words}
    params: dict[str, str | int | list[str]] = {
        "raw": raw,
        "typed": typed,
        "text": text,
        "any": " | ".join(f"({query})" for query in queries),
        "cap": COMMON,
        # Whether the match is thin needs THIN rows; comparing a correction with the words as
        # typed needs them counted as far as the typed ones are.
        "strict_cap": COMMON if typed else THIN,
        "thin": THIN,
        "terms": list(queries),
    }
    with connections[using].cursor() as cursor:
        cursor.execute(COUNTS_SQL, params)
        rows = cursor.fetchall()
    found = {kind: number for kind, term, number in rows if kind != "word"}
    frequencies = {term: number for kind, term, number in rows if kind == "word"}
    total = found["total"]
    terms = weighted_terms(frequencies, total)
    return Counts(found["strict"], found["typed"], found["any"], total, terms)


@dataclass(frozen=True, eq=False)
class Draft:
    """A query's words as prepare() read them, before the counts that say whether the
    all-words match is thin and how rare each word is (counts())."""

    query: ParsedQuery
    subject: tuple[str, ...]  # its words without question filler (subject_words())
    raw: str  # to_tsquery text of the words as searched, corrections included
    typed: str  # the same of the words as typed
    corrected: str
    weigh: str  # the words as typed, when a correction of known words is to be weighed
    found: Named
    words: tuple[str, ...]  # the meaningful words an any-word match would rank
    # What the correction names, looked up once however often the draft is settled.
    _named_as_corrected: dict[str, Named] = field(default_factory=dict, repr=False)

    @property
    def may_defer(self) -> bool:
        """Whether the counts can wait for the page: with no correction to weigh, they decide
        only the any-word match, which needs two words and a thin page."""
        return not self.weigh and len(self.words) >= 2

    def named_as_corrected(self, using: str) -> dict[int, float]:
        if using not in self._named_as_corrected:
            self._named_as_corrected[using] = named_sources([self.corrected], using)
        return self._named_as_corrected[using].levels

    def counts(self, using: str) -> Counts:
        raw, weigh = with_forms(self.raw, self.subject), with_forms(self.weigh, self.subject)
        return counts(raw, weigh, self.query.text, self.words, using)


def widening_text(terms: tuple[Term, ...]) -> str:
    """Any of the rare words, or all the words the catalog has (described.COMMON), in
    to_tsquery syntax."""
    rare = [f"({term.word})" for term in terms if term.widens]
    if len(rare) < len(terms):
        # A common word widens only with every other word the catalog has.
        rare.append("(" + " & ".join(f"({term.word})" for term in terms) + ")")
    return " | ".join(rare)


def widening_query(terms: tuple[Term, ...]) -> SearchQuery:
    return SearchQuery(widening_text(terms), search_type="raw", config=LANGUAGE)


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
