"""Recompute every published source's stored neighbours, and keep them current.

`recompute_neighbours()` reads the catalog (and co-reading counts from registered providers),
blends the evidence (blend.py) and replaces the SourceNeighbour rows in one transaction
(store.py). A task runs it after any transaction that changed what neighbours depend on
(triggers.py, tasks.py), so the loader, the admin and accepting a proposal all refresh the rows
without calling anything; `manage.py compute_related` runs it by hand or from cron, which also
picks up new co-reading.
"""

from collections.abc import Iterable, Iterator

import numpy as np
from django.db import transaction
from django.db.models import Count, Min
from scipy import sparse
from threadpoolctl import threadpool_limits

from readinglist.pagecache import bump_catalog_version

from ..models import ListEntry, Source
from . import blend
from .hooks import co_reading_counts
from .models import SourceNeighbour
from .store import Row, replace_neighbours
from .vectors import CatalogVectors, build_vectors, source_documents

NEIGHBOURS_PER_SOURCE = 8
# Content candidates looked at per source before blending: more than k, so that a link or a
# section can lift a slightly less similar source over a more similar one.
SIMILAR_CANDIDATES = 3 * NEIGHBOURS_PER_SOURCE
# Similarities are computed a block of rows at a time; a block holds about this many cells.
BLOCK_CELLS = 4_000_000
# Terms in more than this share of sources are multiplied as dense columns, at most this many
# (the dense part holds a float per source and term).
DENSE_SHARE = 0.03
MAX_DENSE_TERMS = 400


def similar_rows(
    vectors: CatalogVectors, per_row: int, rows: list[int] | None = None
) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """(rows, their most similar other rows, the cosines) for `rows` (default: all), a block of
    rows at a time: a vector, and two arrays with a row for each of them."""
    count = len(vectors)
    if count < 2 or vectors.matrix.shape[1] == 0:
        return
    wanted = np.arange(count) if rows is None else np.asarray(rows, dtype=np.int64)
    take = min(per_row, count - 1)
    block = max(1, BLOCK_CELLS // count)
    common, rare = _split_terms(vectors.matrix)
    common_t, rare_t = np.ascontiguousarray(common.T), rare.T.tocsr()
    # One core: the worker shares the machine with the web processes.
    with threadpool_limits(1, user_api="blas"):
        for start in range(0, len(wanted), block):
            chunk = wanted[start : start + block]
            cosines = common[chunk] @ common_t
            cosines += (rare[chunk] @ rare_t).toarray()
            lines = np.arange(len(chunk))
            cosines[lines, chunk] = -1.0  # never itself
            best = np.argpartition(cosines, -take, axis=1)[:, -take:]
            yield chunk, best, cosines[lines[:, None], best]


def _split_terms(matrix: sparse.csr_matrix) -> tuple[np.ndarray, sparse.csr_matrix]:
    """The matrix's columns in two parts whose products add up to its product: the terms many
    sources share as a dense array, the others sparse. A sparse product costs each term the
    square of its sources, so a handful of common terms made most of the cost (3 s at 10,000
    sources); a dense product of those columns is a BLAS call, and both parts take ~1 s."""
    count, terms = matrix.shape
    sources_per_term = np.bincount(matrix.indices, minlength=terms)
    common = np.flatnonzero(sources_per_term > DENSE_SHARE * count)
    if len(common) > MAX_DENSE_TERMS:
        most = np.argsort(-sources_per_term[common], kind="stable")[:MAX_DENSE_TERMS]
        common = np.sort(common[most])
    rare = np.setdiff1d(np.arange(terms), common, assume_unique=True)
    return matrix[:, common].toarray(), matrix[:, rare].tocsr()


def _published_pairs(
    pairs: Iterable[tuple[int, int]], published: set[int]
) -> list[tuple[int, int]]:
    return [(a, b) for a, b in pairs if a in published and b in published and a != b]


def _section_entries(published: set[int]) -> list[tuple[int, int, int, str]]:
    rows = ListEntry.objects.values_list(
        "section_id",
        "position",
        "source_id",
        "section__title",
        "section__reading_list__publisher",
        "section__reading_list__title",
    )
    return [
        (section_id, position, source_id, f"same section of the {publisher or title} list: {name}")
        for section_id, position, source_id, name, publisher, title in rows
        if source_id in published
    ]


def gather_evidence(vectors: CatalogVectors, targets: set[int] | None = None) -> blend.Evidence:
    """Every piece of evidence for the neighbours of the sources in `targets` (default: every
    published one), and for others where it costs nothing more (links, sections)."""
    published = set(vectors.row_of)
    evidence = blend.Evidence()
    links = Source.related.through.objects.values_list("from_source_id", "to_source_id")
    blend.add_links(evidence, _published_pairs(links, published))
    blend.add_sections(evidence, _section_entries(published))
    counts = co_reading_counts()
    blend.add_co_reading(
        evidence, {pair: n for pair, n in counts.items() if set(pair) <= published}
    )
    rows = None if targets is None else vectors.rows(sorted(targets))
    for chunk, best, cosines in similar_rows(vectors, SIMILAR_CANDIDATES, rows):
        sources = np.repeat(vectors.ids[chunk], best.shape[1])
        blend.add_similar(evidence, sources, vectors.ids[best].ravel(), cosines.ravel())
    return evidence


def neighbour_rows(
    vectors: CatalogVectors, k: int = NEIGHBOURS_PER_SOURCE, targets: set[int] | None = None
) -> list[Row]:
    """The rows to store for `targets` (default: every published source), as tuples of
    store.COLUMNS."""
    evidence = gather_evidence(vectors, targets)
    wanted = None if targets is None else np.fromiter(targets, dtype=np.int64, count=len(targets))
    chosen = blend.top(evidence, k, wanted)
    texts = [evidence.texts[i][:200] for i in chosen.text.tolist()]
    similar = np.flatnonzero(chosen.kind == blend.SIMILAR)
    a_rows = vectors.rows(chosen.source[similar].tolist())
    b_rows = vectors.rows(chosen.other[similar].tolist())
    for index, terms in zip(similar.tolist(), vectors.shared_terms(a_rows, b_rows), strict=True):
        texts[index] = ("similar: " + ", ".join(terms))[:200] if terms else "similar content"
    return list(
        zip(
            chosen.source.tolist(),
            chosen.other.tolist(),
            chosen.rank.tolist(),
            [round(score, 6) for score in chosen.score.tolist()],
            [blend.KINDS[kind] for kind in chosen.kind.tolist()],
            texts,
            strict=True,
        )
    )


def recompute_neighbours(k: int = NEIGHBOURS_PER_SOURCE, changed: set[int] | None = None) -> int:
    """Replace the stored neighbours: of every source, or (given the ids of `changed` sources)
    of those sources and of the ones whose lists they enter or leave. Returns the number of
    neighbours the recomputed sources now have.

    After a change to a few sources, recomputing only the sources it touches costs a few of
    their rows of similarities instead of all of them. The vectors are rebuilt either way, so
    other sources' stored scores use the previous weights until the next full run
    (compute_related, daily).
    """
    vectors = build_vectors(*source_documents())
    targets = None if changed is None else affected_sources(vectors, changed, k)
    rows = neighbour_rows(vectors, k, targets)
    # A changed source that is no longer published keeps no rows either.
    scope = None if targets is None or changed is None else targets | changed
    if replace_neighbours(rows, scope):
        # The source pages show these rows; no signal told the page cache.
        transaction.on_commit(bump_catalog_version)
    return len(rows)


def affected_sources(vectors: CatalogVectors, changed: set[int], k: int) -> set[int]:
    """The published sources whose neighbours a change to `changed` sources may alter: those
    sources, the sources that list one of them, their curators' links and section mates, and
    every source one of them is now similar enough to enter (beats its weakest neighbour)."""
    published = set(vectors.row_of)
    targets = {pk for pk in changed if pk in published}
    targets |= set(
        SourceNeighbour.objects.filter(neighbour_id__in=changed).values_list("source_id", flat=True)
    )
    links = Source.related.through.objects.filter(from_source_id__in=changed)
    targets |= set(links.values_list("to_source_id", flat=True))
    sections = ListEntry.objects.filter(source_id__in=changed).values("section_id")
    mates = ListEntry.objects.filter(section_id__in=sections).values_list("source_id", flat=True)
    targets |= set(mates)
    changed_rows = vectors.rows(sorted(changed))
    if changed_rows and vectors.matrix.shape[1]:
        best = (vectors.matrix[changed_rows] @ vectors.matrix.T).max(axis=0).toarray().ravel()
        weakest = dict(
            SourceNeighbour.objects.values("source_id")
            .annotate(n=Count("pk"), low=Min("score"))
            .values_list("source_id", "low")
            .filter(n__gte=k)
        )
        reach = blend.SIMILAR_WEIGHT * best
        for row in np.flatnonzero(best >= blend.MIN_SIMILARITY):
            source_id = int(vectors.ids[row])
            if reach[row] > weakest.get(source_id, 0.0):
                targets.add(source_id)
    return targets & published
