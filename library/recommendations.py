""" "For you": what to read next, from what the reader saved, is reading and has finished.

The anchor is arxiv-sanity-lite's per-reader linear SVM over TF-IDF features. Training one per
request costs tens of milliseconds at 10,000 sources (bench_foryou prints it), so the page blends
two cheaper signals over the same vectors instead:
  - the reader's profile: their sources' vectors weighted by status (finished counts most) and
    summed, so a candidate close to the whole of their reading scores well;
  - the nearest of their sources to each candidate (k-nearest neighbours), which keeps a narrow
    interest from drowning in a broad library and names the source behind each pick.
A new reader (fewer than NEW_READER_SOURCES saved) gets the next unread steps of the Start-here
path instead: a source or two says too little about them, and the path is where everyone starts.

The catalog's "readers who finished this read it next" counts come from here too
(finished_next_counts), offered to the catalog through its registration hook.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import groupby
from operator import itemgetter
from typing import TYPE_CHECKING

import numpy as np

from catalog.lists import path_entries
from catalog.models import Source
from catalog.related.vectors import CatalogVectors, catalog_vectors

from .models import Bookmark, Dismissal

if TYPE_CHECKING:
    from accounts.models import User

Status = Bookmark.Status
STATUS_WEIGHT: dict[str, float] = {Status.READ: 1.0, Status.READING: 0.8, Status.TO_READ: 0.5}
STATUS_VERB: dict[str, str] = {
    Status.READ: "read",
    Status.READING: "are reading",
    Status.TO_READ: "saved",
}
# A "Not for me" moves the profile by its reason: away from what was not relevant (and, less, from
# what was too basic or too advanced for the reader), towards what they already read elsewhere.
Reason = Dismissal.Reason
DISMISSAL_WEIGHT: dict[str, float] = {
    Reason.NOT_RELEVANT: -0.6,
    Reason.TOO_BASIC: -0.3,
    Reason.TOO_ADVANCED: -0.3,
    Reason.READ_ELSEWHERE: 1.0,
}
FOR_YOU_LIMIT = 12
NEW_READER_SOURCES = 3
# Candidates scored closely (against every source of the reader) after the profile's first cut.
SHORTLIST = 120
PROFILE_SHARE = 0.5
# Co-reading: a finished source and the next few the same reader finished after it.
READ_NEXT_WITHIN = 3


@dataclass(frozen=True)
class Pick:
    source: Source
    because: str
    score: float = 0.0


@dataclass(frozen=True)
class ForYou:
    picks: list[Pick]
    start_here: bool  # the reader has nothing to go on yet: these are the path's next steps


def finished_next_counts() -> dict[tuple[int, int], int]:
    """{(source, later source): readers who finished both, the second within the next few}."""
    rows = (
        Bookmark.objects.filter(status=Status.READ, finished_at__isnull=False)
        .order_by("user_id", "finished_at", "pk")
        .values_list("user_id", "source_id")
    )
    counts: Counter = Counter()
    for _, finished in groupby(rows.iterator(chunk_size=5000), key=itemgetter(0)):
        ids = [source_id for _, source_id in finished]
        for i, first in enumerate(ids):
            for later in ids[i + 1 : i + 1 + READ_NEXT_WITHIN]:
                counts[(first, later)] += 1
    return counts


def _profile(vectors: CatalogVectors, weights_by_id: dict[int, float]) -> np.ndarray:
    rows = vectors.rows(weights_by_id)
    if not rows:
        return np.zeros(vectors.matrix.shape[1], dtype=np.float32)
    weights = np.array([weights_by_id[int(vectors.ids[r])] for r in rows], dtype=np.float32)
    return np.asarray(vectors.matrix[rows].T @ weights).ravel()


def ranked_rows(
    vectors: CatalogVectors, saved: dict[int, str], dismissed: dict[int, str] | None = None
) -> list[tuple[int, float, int]]:
    """(candidate row, score, row of the reader's source that explains it), best first; the
    dismissed sources ({source_id: reason}) are never candidates and move the profile."""
    dismissed = dismissed or {}
    reader_rows = vectors.rows(saved)
    if not reader_rows or vectors.matrix.shape[1] == 0:
        return []
    weights = np.array(
        [STATUS_WEIGHT.get(saved[int(vectors.ids[r])], 0.5) for r in reader_rows], dtype=np.float32
    )
    reader_matrix = vectors.matrix[reader_rows]
    profile = np.asarray(reader_matrix.T @ weights).ravel()
    profile += _profile(vectors, {pk: DISMISSAL_WEIGHT.get(r, 0.0) for pk, r in dismissed.items()})
    norm = np.linalg.norm(profile)
    if not norm:
        return []
    broad = np.asarray(vectors.matrix @ (profile / norm)).ravel()
    excluded = reader_rows + vectors.rows(dismissed)
    broad[excluded] = -np.inf
    size = min(SHORTLIST, len(broad) - len(set(excluded)))
    if size <= 0:
        return []
    shortlist = np.argpartition(-broad, size - 1)[:size]
    # CSR on both sides: scipy multiplies CSR by CSR about twice as fast as by a transposed CSR.
    close = (vectors.matrix[shortlist] @ reader_matrix.T.tocsr()).toarray() * weights
    nearest = close.argmax(axis=1)
    scores = PROFILE_SHARE * broad[shortlist] + (1 - PROFILE_SHARE) * close.max(axis=1)
    order = np.argsort(-scores)
    return [
        (int(shortlist[i]), float(scores[i]), reader_rows[int(nearest[i])])
        for i in order
        if scores[i] > 0
    ]


def _start_here(saved: dict[int, str], dismissed: dict[int, str], limit: int) -> ForYou:
    picks = [
        Pick(entry.source, f"Start here, step {step}")
        for step, entry in enumerate(path_entries(), start=1)
        if entry.source_id not in saved
        and entry.source_id not in dismissed
        and not entry.source.is_retired
    ]
    return ForYou(picks[:limit], start_here=True)


def recommendations_for(
    user: User, *, saved: dict[int, str] | None = None, limit: int = FOR_YOU_LIMIT
) -> ForYou:
    """The reader's picks, each with the reason it was picked; never a source they saved or
    marked "Not for me". `saved` ({source_id: status}) spares the query when the request already
    read the library."""
    if saved is None:
        saved = dict(Bookmark.objects.filter(user=user).values_list("source_id", "status"))
    dismissed = dict(Dismissal.objects.filter(user=user).values_list("source_id", "reason"))
    if len(saved) < NEW_READER_SOURCES:
        start_here = _start_here(saved, dismissed, limit)
        if start_here.picks:
            return start_here
    vectors = catalog_vectors()
    ranked = ranked_rows(vectors, saved, dismissed)[:limit]
    if not ranked:
        return _start_here(saved, dismissed, limit)
    ids = [int(vectors.ids[row]) for row, _, _ in ranked]
    cards = Source.objects.published().for_cards().in_bulk(ids)
    picks = []
    for row, score, reason_row in ranked:
        source = cards.get(int(vectors.ids[row]))
        if source is None:  # retired since the vectors were built
            continue
        reason_id = int(vectors.ids[reason_row])
        verb = STATUS_VERB.get(saved.get(reason_id, ""), "saved")
        picks.append(Pick(source, f"Because you {verb} {vectors.titles[reason_row]}", score))
    return ForYou(picks, start_here=False)
