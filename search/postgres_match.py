"""The match stage on PostgreSQL: the query read against the catalog, in one statement.

`matched()` asks everything the query's words need to know before they are searched in one
statement (LOOKUP: `lookup_sql()`): every tier's id (the ranking prior compares tiers by id),
the sources the query names (names.py), what the vocabulary knows of each word (typos,
prefixes, compounds: corrections.py) and how many entries the words match as typed, up to
THIN, and only when that is thin, how many entries there are and each meaningful word's
document frequency (COUNTS, up to COMMON: past it a word is common, and counting further costs
time and changes the weights little). When the vocabulary changes how a word is searched
(corrected, a prefix, a compound), the counts are asked again for the words as searched, in a
second statement. Then the all-words match, and when it is thin the any-word match
(described.py), are set on the search entries.
"""

from dataclasses import dataclass, field

from django.contrib.postgres.expressions import ArraySubquery
from django.contrib.postgres.search import SearchQuery
from django.db import connections
from django.db.models import Q, QuerySet

from catalog.models import Topic

from .corrections import ALL_KNOWN, CORRECTIONS_SQL, vocabulary_from, vocabulary_params, words_query
from .described import COMMON, THIN, Term, weighted_terms
from .document import LANGUAGE
from .equivalents import alternatives, tsquery_alternatives, with_forms
from .models import SearchEntry
from .names import NAMED_ROWS, Named, name_keys, named_from, named_sources
from .parsing import JOINED_WORD, ParsedQuery, SearchParams
from .semantic import similarities
from .shared import Matched, narrowed

# Each count stops at COMMON rows: the GIN index gives the rows, and a capped count reads at
# most that many. The entry count comes from the planner's statistics once the table is large
# enough for them to be kept (an exact count of 100,000 entries costs ~10 ms).
COUNTS_WITH = """
strict AS MATERIALIZED (
  SELECT count(*) AS n FROM (SELECT 1 FROM catalog_search_entry
  WHERE document @@ (CASE WHEN %(raw)s = '' THEN websearch_to_tsquery('english', %(text)s)
                     ELSE to_tsquery('english', %(raw)s) END) LIMIT %(strict_cap)s) AS s),
thin AS MATERIALIZED (SELECT n < %(thin)s AS yes FROM strict)"""
COUNTS_ROWS = """
SELECT 'strict', '', n, NULL::text[] FROM strict
UNION ALL
SELECT 'typed', '', CASE WHEN %(typed)s = '' THEN 0 ELSE (SELECT count(*) FROM (
  SELECT 1 FROM catalog_search_entry WHERE document @@ to_tsquery('english', %(typed)s)
  LIMIT %(cap)s) AS s) END, NULL
UNION ALL
SELECT 'any', '', CASE WHEN %(any)s = '' OR NOT (SELECT yes FROM thin) THEN 0 ELSE (
  SELECT count(*) FROM (SELECT 1 FROM catalog_search_entry
  WHERE document @@ to_tsquery('english', %(any)s) LIMIT %(cap)s) AS s) END, NULL
UNION ALL
SELECT 'total', '', CASE WHEN NOT (SELECT yes FROM thin) THEN 0 ELSE (
  SELECT CASE WHEN c.reltuples >= 10000 THEN c.reltuples::bigint
  ELSE (SELECT count(*) FROM catalog_search_entry) END
  FROM pg_class c WHERE c.oid = 'catalog_search_entry'::regclass) END, NULL
UNION ALL
SELECT 'word', w.term, CASE WHEN NOT (SELECT yes FROM thin) THEN 0 ELSE (
  SELECT count(*) FROM (SELECT 1 FROM catalog_search_entry
  WHERE document @@ to_tsquery('english', w.term) LIMIT %(cap)s) AS s) END, NULL
FROM unnest(%(terms)s::text[]) AS w(term)
UNION ALL
SELECT 'joined', '', 0, CASE WHEN NOT %(joined)s OR NOT (SELECT yes FROM thin) THEN NULL ELSE
  ARRAY(SELECT source_id::text FROM catalog_search_entry
  WHERE document @@ (websearch_to_tsquery('english', %(text)s) || to_tsquery('english', %(raw)s))
  LIMIT %(joined_cap)s) END"""
# How many entries a joined word's matches are read up to: past it the page is not thin.
JOINED_CAP = 200


@dataclass(frozen=True)
class Counts:
    strict: int  # all-words matches (as searched, corrections included), up to COMMON
    typed: int  # the same for the words as typed, when a word was corrected
    any: int  # the entries with any of the meaningful words, up to COMMON
    total: int
    terms: tuple[Term, ...]  # the meaningful words found, weighted
    # When the text has a joined word ("FlashAttention-3", "2-CTA") and the match is thin: the
    # entries the page matches, the words as the parser reads them too (text_query()).
    joined: frozenset[int] | None = None


COUNTED = ("strict", "typed", "any", "total")
# What a search asks no counts for: as many all-words matches as a common word has.
NO_COUNTS = Counts(strict=COMMON, typed=0, any=0, total=0, terms=())


def counts_params(raw: str, typed: str, query: ParsedQuery) -> dict[str, str | int | list[str]]:
    """COUNTS' parameters for the words searched as `raw` (and as `typed`, when a correction is
    weighed), whose meaningful words an any-word match would rank."""
    forms = alternatives(query.meaningful)
    # A to_tsquery string for each word and the forms that count as it.
    queries = [tsquery_alternatives(word, forms.get(word, ())) for word in query.meaningful]
    return {
        "raw": raw,
        "typed": typed,
        "text": query.text,
        "any": " | ".join(f"({term})" for term in queries),
        "cap": COMMON,
        # Whether the match is thin needs THIN rows; comparing a correction with the words as
        # typed needs them counted as far as the typed ones are.
        "strict_cap": COMMON if typed else THIN,
        "thin": THIN,
        "terms": queries,
        "joined": bool(raw) and bool(JOINED_WORD.search(query.text)),
        "joined_cap": JOINED_CAP,
    }


def counts_from(rows: list[tuple]) -> Counts:
    """The counts in COUNTS' rows (kind, key, number, _); a word's key is its to_tsquery
    alternatives, which the any-word rank searches (postgres_rank.term_score())."""
    found = {kind: number for kind, _, number, _ in rows if kind in COUNTED}
    frequencies = {key: number for kind, key, number, _ in rows if kind == "word"}
    terms = weighted_terms(frequencies, found["total"])
    joined = next((ids for kind, _, _, ids in rows if kind == "joined"), None)
    return Counts(
        found["strict"],
        found["typed"],
        found["any"],
        found["total"],
        terms,
        None if joined is None else frozenset(int(pk) for pk in joined),
    )


def needs_counts(query: ParsedQuery, weigh: str) -> bool:
    """One meaningful word and no correction to weigh: the any-word match of one word is the
    all-words match, so nothing needs counting."""
    return len(query.meaningful) >= 2 or bool(weigh)


def run(sql: str, params: dict, using: str) -> list[tuple]:
    with connections[using].cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def lookup_sql(*, vocabulary: bool, counted: bool) -> str:
    """LOOKUP: the tiers and named sources, and as needed the vocabulary and the counts, as
    rows of (kind, key, number, list)."""
    parts = [NAMED_ROWS, *([CORRECTIONS_SQL] if vocabulary else [])]
    parts += [COUNTS_ROWS] if counted else []
    return ("WITH " + COUNTS_WITH if counted else "") + "\nUNION ALL\n".join(parts)


def counts(raw: str, typed: str, query: ParsedQuery, using: str) -> Counts:
    """The counts alone, for words the vocabulary made read otherwise than typed."""
    if not needs_counts(query, typed):
        return NO_COUNTS
    sql = "WITH " + COUNTS_WITH + COUNTS_ROWS
    return counts_from(run(sql, counts_params(raw, typed, query), using))


@dataclass(frozen=True)
class Lookup:
    """What LOOKUP found: tiers, named sources, the words as searched and as typed, and the
    counts of the words as they were counted."""

    tiers: dict[str, int]
    found: Named
    raw: str
    typed: str
    corrected: str
    unknown: bool  # a word the catalog has never used (a typo, not a re-reading)
    counts: Counts
    counted: str  # the to_tsquery text the counts are of


def look_up(query: ParsedQuery, using: str) -> Lookup:
    plain = not query.uses_operators
    # The words as they read when every one is known: what the counts count in LOOKUP.
    assumed = words_query(query.subject, ALL_KNOWN)[0] if plain and not query.exact else ""
    counted = with_forms(assumed, query.subject)
    asked = vocabulary_params(query.subject) if plain and not query.exact else None
    params: dict = {"keys": name_keys(query.names, query.name_parts), **(asked or {})}
    with_counts = needs_counts(query, "")
    if with_counts:
        params |= counts_params(counted, "", query)
    rows = run(lookup_sql(vocabulary=asked is not None, counted=with_counts), params, using)
    tiers = {key: number for kind, key, number, _ in rows if kind == "tier"}
    named = [(number, names) for kind, _, number, names in rows if kind == "source"]
    found = named_from(named, query.names, query.name_parts)
    raw = typed = corrected = ""
    unknown = False
    if asked is not None:
        raw, typed, corrected, unknown = words_query(query.subject, vocabulary_from(rows))
    elif plain and not query.exact:
        raw = typed = assumed
    if found.levels:
        # The reader typed a name the catalog has ("TPUv4"): nothing to correct.
        raw, corrected = typed, ""
    numbers = counts_from(rows) if with_counts else NO_COUNTS
    return Lookup(tiers, found, raw, typed, corrected, unknown, numbers, counted)


@dataclass(frozen=True)
class PostgresMatched(Matched):
    """The query as PostgreSQL searches it."""

    tsquery: SearchQuery | None = None
    # What the text rank counts: the words as searched, without their equivalent forms (a
    # phrase form's words would each count, "key" anywhere for "kv"), so a source with the
    # reader's own word comes before one with only an equivalent.
    ranked: SearchQuery | None = None
    tier_ids: tuple[tuple[str, int], ...] = ()  # ((tier slug, id), ...)
    # The any-word match, when the all-words match is thin (described.py): its words, weighted.
    terms: tuple[Term, ...] = ()
    # With the any-word match: the sources nearest the query in meaning ((id, similarity), ...).
    nearest: tuple[tuple[int, float], ...] = field(default=())


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


def settled(query: ParsedQuery, lookup: Lookup, using: str) -> dict:
    """How the words are searched once the counts are known: the correction kept or dropped,
    the any-word match's terms, the named sources."""
    raw, corrected, found = lookup.raw, lookup.corrected, lookup.found
    if corrected:
        corrected = in_place(query.words, query.subject, corrected)
    # A correction of known words is weighed against the words as typed.
    weigh = lookup.typed if corrected and not lookup.unknown else ""
    numbers = lookup.counts
    searched = with_forms(raw, query.subject)
    if weigh or searched != lookup.counted:
        numbers = counts(searched, with_forms(weigh, query.subject), query, using)
    strict, named = numbers.strict, found.levels
    if weigh and strict <= 2 * numbers.typed:
        # Known words read as others find no clearly more than as typed: they stand. (A word
        # the catalog never used is a typo, corrected and announced as before.)
        raw, corrected, strict = lookup.typed, "", numbers.typed
    if corrected:
        named = named_sources([corrected], using).levels
    # The any-word match, when the all-words match is thin and it adds sources.
    widens = strict < THIN and len(query.meaningful) >= 2 and numbers.any > strict
    if widens and numbers.joined is not None and not weigh:
        # A joined word is matched as the parser reads it too: the page is thin only when,
        # the named sources aside, that match is.
        widens = len(numbers.joined - set(named)) < THIN
    terms = numbers.terms if widens else ()
    if corrected and terms and not strict and not named:
        # No source has every word even as corrected, nor does the correction name one: the
        # partial matches are the typed words', and nothing is announced.
        corrected = ""
    if terms and not named and not strict:
        # "hf transformers": the source all but one word names leads the partial matches
        # when no source has every word.
        named = found.in_part
    return {
        "corrected": corrected,
        "named": tuple(named.items()),
        "named_in_part": tuple(found.in_part.items()),
        "partial": bool(terms),
        "complete": strict,
        "tsquery": text_query(query, with_forms(raw, query.subject)),
        "ranked": text_query(query, raw),
        "tier_ids": tuple(lookup.tiers.items()),
        "terms": terms,
        "nearest": tuple(similarities(query.stems, using).items()) if terms else (),
    }


def in_topic(topic: Topic) -> Q:
    family = Topic.objects.filter(Q(pk=topic.pk) | Q(parent=topic.pk)).values("pk")
    return Q(topic_ids__overlap=ArraySubquery(family))


def matched(params: SearchParams, identified: tuple[int, ...], using: str) -> PostgresMatched:
    """Search entries, not sources: narrow rows for counting and ranking."""
    query = params.query
    entries: QuerySet[SearchEntry] = narrowed(
        SearchEntry.objects.using(using), params, in_topic=in_topic, source_id="source_id"
    )
    if not query:
        return PostgresMatched(query=query, rows=entries, identified=identified)
    found = settled(query, look_up(query, using), using)
    condition = Q(document=found["tsquery"])
    if terms := found["terms"]:
        widened = Q(document=widening_query(terms))
        if found["complete"] and found["named_in_part"]:
            # "flash attention hopper" found FlashAttention-3: FlashAttention without the
            # word that narrowed it is what the reader refined away.
            widened &= ~Q(source_id__in=[pk for pk, _ in found["named_in_part"]])
        condition |= widened
    if found["named"]:
        # A name that is not in the text (an acronym of the title) still finds its source.
        condition |= Q(source_id__in=[pk for pk, _ in found["named"]])
    return PostgresMatched(
        query=query, rows=entries.filter(condition), identified=identified, **found
    )
