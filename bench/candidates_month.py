"""The curator's inbox measured on a labelled month of arXiv listings (bench/data/).

Precision and recall of the relevance cut, and top-1/top-3 topic accuracy against the labels,
with the scorer trained on the shipped catalog file exactly as `collect_candidates` trains it on
the database; then the time to score and de-duplicate 10,000 feed entries.
"""

import json
import tomllib
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from candidates.entries import Entry
from candidates.scoring import CatalogDocument, Scorer, catalog_document
from catalog.catalog_file import DEFAULT_CATALOG

MONTH = Path(__file__).resolve().parent / "data" / "arxiv_month.json"


@dataclass(frozen=True)
class Labelled:
    arxiv: str
    title: str
    summary: str
    relevant: bool
    topics: tuple[str, ...]


@dataclass(frozen=True)
class Quality:
    papers: int
    relevant: int
    kept: int
    recall: float
    precision: float
    topic_top1: float
    topic_top3: float


def labelled_month(path: Path = MONTH) -> list[Labelled]:
    papers = json.loads(path.read_text())["papers"]
    return [
        Labelled(p["arxiv"], p["title"], p["summary"], p["relevant"], tuple(p["topics"]))
        for p in papers
    ]


def file_documents(path: Path = DEFAULT_CATALOG) -> list[CatalogDocument]:
    """The shipped catalog's sources as training documents (no database needed)."""
    raw = tomllib.loads(Path(path).read_text())
    names = {topic["slug"]: topic["name"] for topic in raw["topics"]}
    return [
        catalog_document(
            source["slug"],
            source["title"],
            source.get("summary", ""),
            source.get("aliases", []),
            [(slug, names[slug]) for slug in source.get("topics", [])],
        )
        for source in raw["sources"]
    ]


def quality(scorer: Scorer, papers: list[Labelled]) -> Quality:
    scores = scorer.score_many([(paper.title, paper.summary) for paper in papers])
    relevant = [paper.relevant for paper in papers]
    kept = [score.relevant for score in scores]
    hits = sum(r and k for r, k in zip(relevant, kept, strict=True))
    top1 = top3 = 0
    for paper, score in zip(papers, scores, strict=True):
        if paper.relevant:
            suggested = [slug for slug, _p in score.topics]
            top1 += bool(suggested[:1]) and suggested[0] in paper.topics
            top3 += bool(set(suggested[:3]) & set(paper.topics))
    count = sum(relevant)
    return Quality(
        papers=len(papers),
        relevant=count,
        kept=sum(kept),
        recall=hits / count if count else 0.0,
        precision=hits / sum(kept) if any(kept) else 0.0,
        topic_top1=top1 / count if count else 0.0,
        topic_top3=top3 / count if count else 0.0,
    )


def synthetic_entries(papers: list[Labelled], count: int) -> list[Entry]:
    """`count` distinct entries made from the labelled month (made-up ids in a reserved range)."""
    moment = datetime(2025, 11, 15, tzinfo=UTC)
    entries = []
    for n in range(count):
        paper = papers[n % len(papers)]
        identifier = f"9{n // 100000:03d}.{n % 100000:05d}"
        entries.append(
            Entry(
                title=f"{paper.title} (variant {n})",
                url=f"https://arxiv.org/abs/{identifier}",
                abstract=paper.summary,
                published=moment,
                arxiv=identifier,
            )
        )
    return entries
