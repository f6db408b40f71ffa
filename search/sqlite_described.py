"""The any-word match for the SQLite backend (described.py), scored in Python.

SQLite has no full-text index here, so the sources that may have a query word (or a form of it,
equivalents.py) are fetched by substring (the start a word shares with its stem), their title,
aliases, authors, venue, topic names, summary and keywords are stemmed with the Snowball English
stemmer (PostgreSQL's english configuration uses the same algorithm), and each source is scored
by the words it really has, as PostgreSQL's ts_rank scores them: by field, a little more for
repeats, and by rarity among the published sources.
"""

import itertools
import re
from collections import Counter, defaultdict

from django.db.models import Count, Q

from catalog.models import Source
from catalog.querysets import SourceQuerySet

from .described import (
    DESCRIBED_WEIGHTS,
    FORMAT_FAMILIES,
    THIN,
    camel_parts,
    fused_rank,
    is_technical,
    meaning_factor,
    nudge,
    stem,
    text_stems,
    weighted_terms,
)
from .equivalents import FORM_WEIGHT, alternatives, content
from .ranking import REFERENCE_YEAR, TIER_PRIORS, YEAR_WEIGHT
from .semantic import similarities

SUMMARY, TOPICS, NAMES, TITLE = DESCRIBED_WEIGHTS
# At most this many any-word matches are kept, the best scored: the page orders them by a CASE
# over their ids, and nobody pages that far into a described query's weakest matches.
KEPT = 200
NOT_WORD = "[^a-z0-9]"

type Fields = list[tuple[float, Counter[str]]]
type Forms = tuple[tuple[str, ...], ...]


def technical_pattern(word: str) -> str:
    """A regular expression for a format or chip token as a whole word, with its block-scaled
    family members ("fp6" finds "MXFP6", not "fp64"; "h200" does not find "GH200")."""
    families = "|".join(FORMAT_FAMILIES)
    return rf"(^|{NOT_WORD})({families})?{re.escape(word)}({NOT_WORD}|$)"


def token_pattern(word: str) -> str:
    """A regular expression for `word` as a whole token, or its plural ("tp", "tps")."""
    return rf"(^|{NOT_WORD}){re.escape(word)}s?({NOT_WORD}|$)"


def contains_word(fields: tuple[str, ...], word: str, *, whole: bool = False) -> Q:
    """Any of `fields` has `word`: a format or chip as a whole token, another word anywhere, or
    as a whole token with `whole` (an abbreviation: "tp" is not the one in "output")."""
    condition = Q()
    for name in fields:
        if is_technical(word):
            condition |= Q(**{f"{name}__iregex": technical_pattern(word)})
        elif whole:
            condition |= Q(**{f"{name}__iregex": token_pattern(word)})
        else:
            condition |= Q(**{f"{name}__icontains": word})
    return condition


def prior_value(tier: str, primary: bool, year: int | None) -> float:
    """ranking.prior_expression() for one source, in Python."""
    age = max(0, REFERENCE_YEAR - (year or REFERENCE_YEAR))
    return TIER_PRIORS.get(tier, 1.0) * (1.3 if primary else 1.0) * (1.0 + YEAR_WEIGHT * age)


def field_stems(row: dict, topics: list[str]) -> Fields:
    """A source's stems per field with the field's weight, as the PostgreSQL document declares
    them (document.SEARCH_DOCUMENT): the title; aliases and first author; topics and venue; the
    summary, the keywords, the parts of camel-case names, the other authors. Each stem
    counted."""
    first, _, others = row["authors"].partition(",")
    named = [row["title"], row["aliases"], row["summary"]]
    described = [row["summary"], row["keywords"]]
    rest = " ".join([*described, *(camel_parts(text) for text in named), others])
    return [
        (TITLE, Counter(text_stems(row["title"]))),
        (NAMES, Counter(text_stems(f"{row['aliases']} {first}"))),
        (TOPICS, Counter(text_stems(" ".join([*topics, row["venue"]])))),
        (SUMMARY, Counter(text_stems(rest))),
    ]


def form_stems(word: str, forms: tuple[str, ...]) -> Forms:
    """`word` and each form that counts as it, as stems (a phrase form's words)."""
    return ((stem(word),), *(content(form) for form in forms))


def occurrence_score(weights: list[float]) -> float:
    """ts_rank's score of one word from the field weights of its occurrences in document order
    (calc_rank_or), in units of one title occurrence: the best occurrence counts fully, the
    n-th one 1/n² of its weight."""
    if not weights:
        return 0.0
    best = max(weights)
    first = weights.index(best)
    total = sum(weight / (j + 1) ** 2 for j, weight in enumerate(weights))
    return best + total - best / (first + 1) ** 2


def term_score(fields: Fields, forms: Forms) -> float:
    """As postgres_described.term_score(): the word (the first of `forms`) by its occurrences,
    its other single-word forms ranked together and a phrase form by the best field that has
    all its words, both at FORM_WEIGHT."""
    word, *others = forms

    def occurrences(stems: set[str]) -> float:
        return sum(
            occurrence_score([weight for weight, counts in fields for _ in range(counts[s])])
            for s in stems
        )

    singles = {form[0] for form in others if len(form) == 1} - set(word)
    phrases = [form for form in others if len(form) > 1]
    found = [weight for weight, counts in fields for form in phrases if set(form) <= set(counts)]
    return max(occurrences(set(word)), FORM_WEIGHT * max([occurrences(singles), *found]))


def searched_prefix(form: str) -> str:
    """What a source that may have `form` contains: the start its longest word shares with its
    stem ("memory" is stemmed "memori"; both start "memor")."""
    longest = max(form.split(), key=len)
    shared = itertools.takewhile(
        lambda pair: pair[0] == pair[1], zip(longest, stem(longest), strict=False)
    )
    return "".join(letter for letter, _ in shared) or longest


def candidates(forms: dict[str, tuple[str, ...]]) -> Q:
    """The sources that may have a word or a form of it ({word: its other forms})."""
    fields = ("title", "aliases", "authors", "venue", "summary", "keywords")
    maybe = Q()
    for word, others in forms.items():
        for form in (word, *others):
            prefix = searched_prefix(form)
            maybe |= contains_word(fields, prefix)
            topics = Source.topics.through.objects.filter(topic__name__icontains=prefix)
            maybe |= Q(pk__in=topics.values("source_id"))
    return maybe


def candidate_rows(
    published: SourceQuerySet, forms: dict[str, tuple[str, ...]]
) -> tuple[list[dict], dict[int, list[str]]]:
    """The candidates' searched columns, and their topics' names: a row per source and topic,
    in one query."""
    columns = ("pk", "title", "aliases", "authors", "venue", "summary", "keywords", "year", "basis")
    rows_by_id: dict[int, dict] = {}
    topic_names: dict[int, list[str]] = defaultdict(list)
    for row in published.filter(candidates(forms)).values(*columns, "tier__slug", "topics__name"):
        rows_by_id.setdefault(row["pk"], row)
        if row["topics__name"]:
            topic_names[row["pk"]].append(row["topics__name"])
    return list(rows_by_id.values()), topic_names


def described_scores(
    published: SourceQuerySet,
    words: tuple[str, ...],
    strict: SourceQuerySet,
    stems: tuple[str, ...],
) -> tuple[int, dict[int, float]]:
    """(the all-words match's size, {source id: fused score}) for the query's meaningful words;
    the scores only when that match is thin and there are two words or more. Every source with
    some of the words is scored, the all-words matches with their bonus (described.fused_rank)."""
    counted = published.aggregate(
        total=Count("pk"), strict=Count("pk", filter=Q(pk__in=strict.values("pk")))
    )
    if counted["strict"] >= THIN or len(words) < 2:
        return counted["strict"], {}
    forms = {word: alternatives(words).get(word, ()) for word in words}
    rows, topic_names = candidate_rows(published, forms)
    complete = set(strict.values_list("pk", flat=True))
    documents = {row["pk"]: field_stems(row, topic_names[row["pk"]]) for row in rows}
    word_scores = {
        word: {
            pk: score
            for pk, fields in documents.items()
            if (score := term_score(fields, form_stems(word, forms[word])))
        }
        for word in words
    }
    terms = weighted_terms({w: len(found) for w, found in word_scores.items()}, counted["total"])
    nearest = similarities(stems, published.db)
    scores: dict[int, float] = {}
    for row in rows:
        pk = row["pk"]
        score = sum(term.weight * word_scores[term.word].get(pk, 0.0) for term in terms)
        # A rare word, or every word the catalog has (described.COMMON).
        widened = any(term.widens and pk in word_scores[term.word] for term in terms) or all(
            pk in word_scores[term.word] for term in terms
        )
        if widened or pk in complete:
            prior = prior_value(row["tier__slug"], row["basis"] != Source.Basis.NONE, row["year"])
            scores[pk] = fused_rank(
                named=0.0,
                all_words=float(pk in complete),
                described=score,
                nudge=nudge(prior),
                meaning=meaning_factor(nearest.get(pk, 0.0)),
            )
    if all(all(pk in word_scores[word] for word in words) for pk in scores):
        return counted["strict"], {}  # every source with some of the words has all of them
    best = sorted(scores, key=lambda pk: -scores[pk])[:KEPT]
    return counted["strict"], {pk: scores[pk] for pk in best}
