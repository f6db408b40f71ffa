"""How the four kinds of evidence become one ranked list of neighbours per source.

Each kind adds to a candidate's score; the kind that added most is the reason the page shows.
Weights: a curator's explicit link outranks everything; the next entries of the same list
section come next (a list's order is a curator's judgement too); text similarity is the cosine
of the TF-IDF vectors (usually 0.1-0.5 between sources on one subject); co-reading counts only
from CO_READING_MIN_READERS readers on, so no single reader's history shows on a page.

Evidence is kept in columns (numpy arrays), one entry per piece of evidence, and blended with
sorts and group sums: at 10,000 sources there are a quarter of a million similarity candidates,
and a Python object per candidate cost more than computing the similarities.
"""

from collections import defaultdict
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

LINK_WEIGHT = 1.0
SECTION_WEIGHT = 0.35
SECTION_REACH = 2  # entries further apart in a section than this are not neighbours by position
SIMILAR_WEIGHT = 1.5
MIN_SIMILARITY = 0.05
CO_READ_WEIGHT = 0.15
CO_READ_CAP = 5
CO_READING_MIN_READERS = 2

# Stored as SourceNeighbour.reason_kind; the index is the kind's code in the columns.
KINDS = ("linked", "section", "co_read", "similar")
LINKED, SECTION, CO_READ, SIMILAR = range(len(KINDS))


class Evidence:
    """Why each source may list another: (source, other, weight, kind, text) per piece of
    evidence, in the order added. `texts[text]` is the reason a page shows; similar evidence
    has none yet (text 0, "") because its shared terms are found for the chosen few only."""

    def __init__(self) -> None:
        self.texts: list[str] = [""]
        self._text_ids: dict[str, int] = {"": 0}
        self._parts: list[tuple[np.ndarray, ...]] = []

    def text_id(self, text: str) -> int:
        found = self._text_ids.get(text)
        if found is None:
            found = self._text_ids[text] = len(self.texts)
            self.texts.append(text)
        return found

    def add(
        self,
        kind: int,
        source: npt.ArrayLike,
        other: npt.ArrayLike,
        weight: npt.ArrayLike,
        text: npt.ArrayLike = 0,
    ) -> None:
        """Evidence of one kind: `source` and `other` side by side, `weight` and `text` (an id)
        one per entry or one for all."""
        source = np.asarray(source, dtype=np.int64)
        count = len(source)
        self._parts.append(
            (
                source,
                np.asarray(other, dtype=np.int64),
                np.broadcast_to(np.asarray(weight, dtype=np.float64), (count,)),
                np.full(count, kind, dtype=np.int8),
                np.broadcast_to(np.asarray(text, dtype=np.int64), (count,)),
            )
        )

    def columns(self) -> tuple[np.ndarray, ...]:
        if not self._parts:
            empty = np.zeros(0, dtype=np.int64)
            return empty, empty, np.zeros(0), np.zeros(0, dtype=np.int8), empty
        return tuple(np.concatenate(column) for column in zip(*self._parts, strict=True))


def add_links(evidence: Evidence, pairs: list[tuple[int, int]]) -> None:
    text = evidence.text_id("linked by the catalog's curators")
    evidence.add(LINKED, [a for a, _ in pairs], [b for _, b in pairs], LINK_WEIGHT, text)


def add_sections(evidence: Evidence, entries: list[tuple[int, int, int, str]]) -> None:
    """`entries`: (section_id, position, source_id, reason text), any order."""
    by_section: dict[int, list[tuple[int, int, str]]] = defaultdict(list)
    for section_id, position, source_id, text in entries:
        by_section[section_id].append((position, source_id, text))
    found: list[tuple[int, int, float, int]] = []
    for rows in by_section.values():
        rows.sort()
        for i, (position, source_id, text) in enumerate(rows):
            text_id = evidence.text_id(text)
            for other_position, other_id, _ in rows[i + 1 : i + 1 + SECTION_REACH]:
                if other_id == source_id:
                    continue
                weight = SECTION_WEIGHT / max(other_position - position, 1)
                found.append((source_id, other_id, weight, text_id))
                found.append((other_id, source_id, weight, text_id))
    evidence.add(SECTION, *_unzip(found, 4))


def add_co_reading(evidence: Evidence, counts: dict[tuple[int, int], int]) -> None:
    found = [
        (
            source_id,
            next_id,
            CO_READ_WEIGHT * min(readers, CO_READ_CAP),
            evidence.text_id(f"{readers} readers who finished this read it next"),
        )
        for (source_id, next_id), readers in counts.items()
        if readers >= CO_READING_MIN_READERS and source_id != next_id
    ]
    evidence.add(CO_READ, *_unzip(found, 4))


def add_similar(
    evidence: Evidence, sources: npt.ArrayLike, others: npt.ArrayLike, cosines: npt.ArrayLike
) -> None:
    """Flat arrays: each source, one of its most similar others, and their cosine."""
    sources, others = np.asarray(sources), np.asarray(others)
    cosines = np.asarray(cosines, dtype=np.float64)
    keep = (cosines >= MIN_SIMILARITY) & (others != sources)
    evidence.add(SIMILAR, sources[keep], others[keep], SIMILAR_WEIGHT * cosines[keep])


def _unzip(rows: list[tuple], width: int) -> list[list]:
    """Columns of `rows` (empty ones when there are no rows)."""
    return [[row[i] for row in rows] for i in range(width)]


@dataclass(frozen=True)
class Chosen:
    """Each source's best neighbours, ranked: one entry per stored row."""

    source: np.ndarray
    other: np.ndarray
    rank: np.ndarray
    score: np.ndarray
    kind: np.ndarray  # codes into KINDS
    text: np.ndarray  # ids into Evidence.texts


def top(evidence: Evidence, k: int, sources: np.ndarray | None = None) -> Chosen:
    """Each source's k best candidates (of `sources` only, when given): highest summed weight
    first, then lowest id; the reason is the evidence that added most, the first of equals."""
    source, other, weight, kind, text = evidence.columns()
    if sources is not None:
        wanted = np.isin(source, sources)
        source, other, weight, kind, text = (c[wanted] for c in (source, other, weight, kind, text))
    if not len(source):
        return Chosen(*(np.zeros(0, dtype=np.int64) for _ in range(6)))
    added = np.arange(len(source))
    # One group per (source, other), its evidence in the order added: summed in that order.
    by_pair = np.lexsort((added, other, source))
    starts = _group_starts(source[by_pair], other[by_pair])
    score = np.add.reduceat(weight[by_pair], starts)
    # The same groups in the same order, the heaviest evidence (the earliest of equals) first.
    reason = np.lexsort((added, -weight, other, source))[starts]
    pair_source, pair_other = source[reason], other[reason]
    ranked = np.lexsort((pair_other, -score, pair_source))
    firsts = _group_starts(pair_source[ranked])
    rank = np.arange(len(ranked)) - np.repeat(firsts, np.diff(np.r_[firsts, len(ranked)])) + 1
    kept = rank <= k
    chosen = ranked[kept]
    return Chosen(
        source=pair_source[chosen],
        other=pair_other[chosen],
        rank=rank[kept],
        score=score[chosen],
        kind=kind[reason[chosen]],
        text=text[reason[chosen]],
    )


def _group_starts(*keys: np.ndarray) -> np.ndarray:
    """Where each run of equal keys starts, in arrays sorted by those keys (not empty)."""
    new = np.zeros(len(keys[0]), dtype=bool)
    new[0] = True
    for key in keys:
        new[1:] |= key[1:] != key[:-1]
    return np.flatnonzero(new)
