"""How the four kinds of evidence become one ranked list of neighbours per source.

Each kind adds to a candidate's score; the kind that added most is the reason the page shows.
Weights: a curator's explicit link outranks everything; the next entries of the same list
section come next (a list's order is a curator's judgement too); text similarity is the cosine
of the TF-IDF vectors (usually 0.1-0.5 between sources on one subject); co-reading counts only
from CO_READING_MIN_READERS readers on, so no single reader's history shows on a page.
"""

from collections import defaultdict
from dataclasses import dataclass

LINK_WEIGHT = 1.0
SECTION_WEIGHT = 0.35
SECTION_REACH = 2  # entries further apart in a section than this are not neighbours by position
SIMILAR_WEIGHT = 1.5
MIN_SIMILARITY = 0.05
CO_READ_WEIGHT = 0.15
CO_READ_CAP = 5
CO_READING_MIN_READERS = 2


@dataclass
class Candidate:
    score: float = 0.0
    best: float = -1.0
    kind: str = ""
    text: str = ""

    def add(self, weight: float, kind: str, text: str) -> None:
        self.score += weight
        if weight > self.best:
            self.best, self.kind, self.text = weight, kind, text


Candidates = dict[int, dict[int, Candidate]]


def new_candidates() -> Candidates:
    return defaultdict(lambda: defaultdict(Candidate))


def add_links(candidates: Candidates, pairs: list[tuple[int, int]]) -> None:
    for a, b in pairs:
        candidates[a][b].add(LINK_WEIGHT, "linked", "linked by the catalog's curators")


def add_sections(candidates: Candidates, entries: list[tuple[int, int, int, str]]) -> None:
    """`entries`: (section_id, position, source_id, reason text), any order."""
    by_section: dict[int, list[tuple[int, int, str]]] = defaultdict(list)
    for section_id, position, source_id, text in entries:
        by_section[section_id].append((position, source_id, text))
    for rows in by_section.values():
        rows.sort()
        for i, (position, source_id, text) in enumerate(rows):
            for other_position, other_id, _ in rows[i + 1 : i + 1 + SECTION_REACH]:
                if other_id == source_id:
                    continue
                weight = SECTION_WEIGHT / max(other_position - position, 1)
                candidates[source_id][other_id].add(weight, "section", text)
                candidates[other_id][source_id].add(weight, "section", text)


def add_co_reading(candidates: Candidates, counts: dict[tuple[int, int], int]) -> None:
    for (source_id, next_id), readers in counts.items():
        if readers < CO_READING_MIN_READERS or source_id == next_id:
            continue
        weight = CO_READ_WEIGHT * min(readers, CO_READ_CAP)
        candidates[source_id][next_id].add(
            weight, "co_read", f"{readers} readers who finished this read it next"
        )


def add_similar(candidates: Candidates, source_id: int, similar: list[tuple[int, float, str]]):
    """`similar`: (other source id, cosine, "similar: …" text) for one source."""
    for other_id, cosine, text in similar:
        if cosine >= MIN_SIMILARITY and other_id != source_id:
            candidates[source_id][other_id].add(SIMILAR_WEIGHT * cosine, "similar", text)


def top(candidates: dict[int, Candidate], k: int) -> list[tuple[int, Candidate]]:
    return sorted(candidates.items(), key=lambda item: (-item[1].score, item[0]))[:k]
