"""Judging search: a set of reader queries with graded sources, and the figures over it.

The judged set (`tests/search/relevance/judged_queries.toml`) holds described queries in four
groups and the navigational ones; each lists the sources relevant to it, graded 1 to 5. The
figures are the usual ones: nDCG@10 (graded gain, log2 discount), MRR@10 (the first source
graded 3 or more), recall@5 (of the sources graded 3 or more) and the share of queries with
no result. A BM25 ranking over the same text the search reads (title, aliases, summary,
keywords, topic names), stemmed the same way, is the baseline, computed in the same run.
"""

import math
import re
import tomllib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import snowballstemmer
from django.conf import settings

from catalog.models import Source

JUDGED_QUERIES = Path(settings.BASE_DIR) / "tests" / "search" / "relevance" / "judged_queries.toml"
# Queries written by readers who saw neither the judged set nor the code: not for tuning.
HELDOUT_QUERIES = JUDGED_QUERIES.with_name("heldout_queries.toml")
# A second such set, written after the first round of keywords without seeing them.
FRESH_QUERIES = JUDGED_QUERIES.with_name("fresh_queries.toml")
# Needs put in words no relevant source uses (no stem shared), and needs the catalog does not
# cover at all (no relevant source): the second is judged by its "no good answer" pages only.
PARAPHRASE_QUERIES = JUDGED_QUERIES.with_name("paraphrase_queries.toml")
UNCOVERED_QUERIES = JUDGED_QUERIES.with_name("uncovered_queries.toml")
GROUPS = ("problem", "concept", "question", "jargon", "paraphrase", "navigational", "uncovered")
UNJUDGED = ("uncovered",)
CUTOFF = 10
RECALL_CUTOFF = 5
# A source graded this or higher is one a reader was looking for (MRR and recall count these).
RELEVANT_GRADE = 3

# A ranking: the slugs shown on the first page, in order, and whether the page said that
# nothing in the catalog answers the query well (for BM25: that it found nothing).
type Ranking = tuple[list[str], bool]
type Ranker = Callable[[str], Ranking]

# The baseline's own text processing, fixed here so that changes to the search's tokens (camel
# case parts, synonyms) never move the baseline: lower-case runs of letters and digits, stemmed
# with Snowball English; the query without the search's filler and stop words.
BASELINE_TOKEN = re.compile(r"[a-z0-9]+")
_baseline_stemmer = snowballstemmer.stemmer("english")


def baseline_stems(text: str) -> list[str]:
    return [_baseline_stemmer.stemWord(token) for token in BASELINE_TOKEN.findall(text.lower())]


def baseline_query_stems(text: str) -> list[str]:
    from search.described import meaningful_words, subject_words

    words = tuple(BASELINE_TOKEN.findall(text.lower()))
    return [_baseline_stemmer.stemWord(word) for word in meaningful_words(subject_words(words))]


@dataclass(frozen=True)
class JudgedQuery:
    group: str
    text: str
    grades: dict[str, int]


@dataclass
class Figures:
    """The mean figures of a group of queries."""

    queries: int = 0
    ndcg: float = 0.0
    mrr: float = 0.0
    recall: float = 0.0
    empty: int = 0
    # Pages that said nothing in the catalog answers the query well.
    flagged: int = 0
    worst: list[tuple[float, str]] = field(default_factory=list)

    @property
    def empty_rate(self) -> float:
        return self.empty / self.queries if self.queries else 0.0

    @property
    def flagged_rate(self) -> float:
        return self.flagged / self.queries if self.queries else 0.0


def judged_queries(path: Path = JUDGED_QUERIES) -> list[JudgedQuery]:
    with path.open("rb") as file:
        data = tomllib.load(file)
    return [JudgedQuery(row["group"], row["q"], dict(row["relevant"])) for row in data["query"]]


def ndcg(ranked: list[str], grades: dict[str, int], k: int = CUTOFF) -> float:
    gains = [grades.get(slug, 0) for slug in ranked[:k]]
    dcg = sum((2**gain - 1) / math.log2(i + 2) for i, gain in enumerate(gains))
    ideal = sorted(grades.values(), reverse=True)[:k]
    best = sum((2**gain - 1) / math.log2(i + 2) for i, gain in enumerate(ideal))
    return dcg / best if best else 0.0


def reciprocal_rank(ranked: list[str], grades: dict[str, int], k: int = CUTOFF) -> float:
    for i, slug in enumerate(ranked[:k]):
        if grades.get(slug, 0) >= RELEVANT_GRADE:
            return 1 / (i + 1)
    return 0.0


def recall(ranked: list[str], grades: dict[str, int], k: int = RECALL_CUTOFF) -> float:
    wanted = {slug for slug, grade in grades.items() if grade >= RELEVANT_GRADE}
    return len(wanted & set(ranked[:k])) / len(wanted) if wanted else 1.0


def evaluate(queries: Iterable[JudgedQuery], ranker: Ranker) -> dict[str, Figures]:
    """Figures per group, and over the described groups as "described"."""
    per_group: dict[str, list[tuple[JudgedQuery, Ranking]]] = {}
    for query in queries:
        per_group.setdefault(query.group, []).append((query, ranker(query.text)))
    figures = {group: _figures(rows) for group, rows in per_group.items()}
    described = [
        row
        for group, rows in per_group.items()
        if group not in ("navigational", *UNJUDGED)
        for row in rows
    ]
    if described:
        figures["described"] = _figures(described)
    return figures


def _figures(rows: list[tuple[JudgedQuery, Ranking]]) -> Figures:
    count = len(rows)
    scores = [(ndcg(ranked, query.grades), query.text) for query, (ranked, _) in rows]
    return Figures(
        queries=count,
        ndcg=sum(score for score, _ in scores) / count,
        mrr=sum(reciprocal_rank(ranked, query.grades) for query, (ranked, _) in rows) / count,
        recall=sum(recall(ranked, query.grades) for query, (ranked, _) in rows) / count,
        empty=sum(not ranked for _, (ranked, _) in rows),
        flagged=sum(flagged for _, (_, flagged) in rows),
        worst=sorted(scores)[:5],
    )


def search_ranker(using: str = "default") -> Ranker:
    """The slugs /sources/?q= shows on its first page, in order."""
    from search.page import search_sources
    from search.parsing import SearchParams

    def ranked(text: str) -> Ranking:
        page = search_sources(SearchParams(q=text), using=using)
        return [source.slug for source in page.page.object_list], page.no_good_match

    return ranked


def bm25_ranker(using: str = "default") -> Ranker:
    """BM25 (Okapi, the library's defaults) over the published sources' title, aliases, summary,
    keywords and topic names, stemmed as the described-needs match stems them."""
    from rank_bm25 import BM25Okapi  # a development dependency: only judging needs it

    sources = list(Source.objects.using(using).published().prefetch_related("topics"))
    texts = [
        " ".join([s.title, s.aliases, s.summary, s.keywords, *(t.name for t in s.topics.all())])
        for s in sources
    ]
    index = BM25Okapi([baseline_stems(text) for text in texts])
    slugs = [source.slug for source in sources]

    def ranked(text: str) -> Ranking:
        stems = baseline_query_stems(text)
        if not stems:
            return [], True
        scores = index.get_scores(stems)
        order = sorted(range(len(slugs)), key=lambda i: (-scores[i], slugs[i]))
        found = [slugs[i] for i in order[:CUTOFF] if scores[i] > 0]
        return found, not found

    return ranked


def report_lines(ours: dict[str, Figures], baseline: dict[str, Figures]) -> list[str]:
    """A table: per group, our figures next to the baseline's. "no answer" is the share of
    pages that said nothing in the catalog answers the query well (BM25's: found nothing)."""
    pair = "ours / BM25"
    lines = [
        f"{'group':<13}{'n':>4}  {'nDCG@10':>15}  {'MRR@10':>15}  {'recall@5':>15}"
        f"  {'no result':>11}  {'no answer':>13}",
        f"{'':<17}  {pair:>15}  {pair:>15}  {pair:>15}  {pair:>11}  {pair:>13}",
    ]
    for group in (*GROUPS, "described"):
        if group not in ours:
            continue
        a, b = ours[group], baseline[group]
        answer = f"{a.flagged_rate:>5.2f} / {b.flagged_rate:.2f}"
        if group in UNJUDGED:
            lines.append(
                f"{group:<13}{a.queries:>4}  {'-':>15}  {'-':>15}  {'-':>15}"
                f"  {a.empty:>5} / {b.empty:<3}  {answer:>13}"
            )
            continue
        lines.append(
            f"{group:<13}{a.queries:>4}  {a.ndcg:>7.3f} / {b.ndcg:.3f}  {a.mrr:>7.3f} / {b.mrr:.3f}"
            f"  {a.recall:>7.3f} / {b.recall:.3f}  {a.empty:>5} / {b.empty:<3}  {answer:>13}"
        )
    return lines
