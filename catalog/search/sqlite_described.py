"""The any-word match for the SQLite backend (described.py), scored in Python.

SQLite has no full-text index here, so the sources that may have a query word are fetched by
substring (a stem is a substring of every word it stems), their title, aliases, authors, venue,
topic names and summary are stemmed with the Snowball English stemmer (PostgreSQL's english
configuration uses the same algorithm), and each source is scored by the words it really has,
weighted by field and by rarity among the published sources, as on PostgreSQL.
"""

import re
from collections import defaultdict

from django.db.models import Count, Q

from ..models import Source
from ..querysets import SourceQuerySet
from .described import (
    DESCRIBED_WEIGHTS,
    FORMAT_FAMILIES,
    THIN,
    document_stems,
    fused_rank,
    is_technical,
    stem,
    term_alternatives,
    weighted_terms,
)
from .ranking import REFERENCE_YEAR, TIER_PRIORS, YEAR_WEIGHT

SUMMARY, TOPICS, NAMES, TITLE = DESCRIBED_WEIGHTS
# At most this many any-word matches are kept, the best scored: the page orders them by a CASE
# over their ids, and nobody pages that far into a described query's weakest matches.
KEPT = 200
NOT_WORD = "[^a-z0-9]"


def technical_pattern(word: str) -> str:
    """A regular expression for a format or chip token as a whole word, with its block-scaled
    family members ("fp6" finds "MXFP6", not "fp64"; "h200" does not find "GH200")."""
    families = "|".join(FORMAT_FAMILIES)
    return rf"(^|{NOT_WORD})({families})?{re.escape(word)}({NOT_WORD}|$)"


def contains_word(fields: tuple[str, ...], word: str) -> Q:
    """Any of `fields` has `word`: a format or chip as a whole token, another word anywhere."""
    condition = Q()
    for name in fields:
        if is_technical(word):
            condition |= Q(**{f"{name}__iregex": technical_pattern(word)})
        else:
            condition |= Q(**{f"{name}__icontains": word})
    return condition


def prior_value(tier: str, primary: bool, year: int | None) -> float:
    """ranking.prior_expression() for one source, in Python."""
    age = max(0, REFERENCE_YEAR - (year or REFERENCE_YEAR))
    return TIER_PRIORS.get(tier, 1.0) * (1.3 if primary else 1.0) * (1.0 + YEAR_WEIGHT * age)


def field_stems(row: dict, topics: list[str]) -> list[tuple[float, set[str]]]:
    """A source's stems per field, with the field's weight."""
    names = " ".join([row["aliases"], row["authors"]])
    return [
        (TITLE, set(document_stems(row["title"]))),
        (NAMES, set(document_stems(names))),
        (TOPICS, set(document_stems(" ".join([*topics, row["venue"]])))),
        (SUMMARY, set(document_stems(row["summary"]))),
    ]


def described_scores(
    published: SourceQuerySet, words: tuple[str, ...], strict: SourceQuerySet
) -> tuple[int, dict[int, float]]:
    """(the all-words match's size, {source id: any-word score}) for the query's meaningful
    words; the scores only when that match is thin and there are two words or more."""
    stems = {word: stem(word) for word in words}
    counted = published.aggregate(
        total=Count("pk"), strict=Count("pk", filter=Q(pk__in=strict.values("pk")))
    )
    if counted["strict"] >= THIN or len(words) < 2:
        return counted["strict"], {}
    fields = ("title", "aliases", "authors", "venue", "summary")
    maybe = Q()
    for stemmed in stems.values():
        maybe |= contains_word(fields, stemmed)
        topics = Source.topics.through.objects.filter(topic__name__icontains=stemmed)
        maybe |= Q(pk__in=topics.values("source_id"))
    columns = ("pk", "title", "aliases", "authors", "venue", "summary", "year", "basis")
    # A row per source and topic, in one query: the topics' names are searched too.
    rows_by_id: dict[int, dict] = {}
    topic_names: dict[int, list[str]] = defaultdict(list)
    for row in published.filter(maybe).values(*columns, "tier__slug", "topics__name"):
        rows_by_id.setdefault(row["pk"], row)
        if row["topics__name"]:
            topic_names[row["pk"]].append(row["topics__name"])
    rows = list(rows_by_id.values())
    documents = {row["pk"]: field_stems(row, topic_names[row["pk"]]) for row in rows}
    found = {
        word: {pk for pk, stemmed in documents.items() if _has(stemmed, word, stems[word])}
        for word in words
    }
    terms = weighted_terms({word: len(ids) for word, ids in found.items()}, counted["total"])
    scores: dict[int, float] = {}
    for row in rows:
        document = documents[row["pk"]]
        score = sum(
            term.weight * _weight(document, term.word, stems[term.word])
            for term in terms
            if row["pk"] in found[term.word]
        )
        widened = any(term.widens and row["pk"] in found[term.word] for term in terms)
        if score and widened:
            prior = prior_value(row["tier__slug"], row["basis"] != Source.Basis.NONE, row["year"])
            scores[row["pk"]] = fused_rank(
                named=0.0, all_words=0.0, rank=0.0, described=score, nudge=prior**0.5
            )
    if all(all(pk in found[word] for word in words) for pk in scores):
        return counted["strict"], {}  # every source with some of the words has all of them
    best = sorted(scores, key=lambda pk: -scores[pk])[:KEPT]
    return counted["strict"], {pk: scores[pk] for pk in best}


def _weight(fields: list[tuple[float, set[str]]], word: str, stemmed: str) -> float:
    alternatives = {stem(w) for w in term_alternatives(word)} | {stemmed}
    return max((weight for weight, stems in fields if stems & alternatives), default=0.0)


def _has(fields: list[tuple[float, set[str]]], word: str, stemmed: str) -> bool:
    return bool(_weight(fields, word, stemmed))
