"""Recompute every published source's stored neighbours, and keep them current.

`recompute_neighbours()` reads the catalog (and co-reading counts from registered providers),
blends the evidence (blend.py) and replaces the SourceNeighbour rows in one transaction. It runs
after any transaction that changed what neighbours depend on (triggers.py), so the loader, the
admin and accepting a proposal all refresh the rows without calling anything;
`manage.py compute_related` runs it by hand or from cron, which also picks up new co-reading.
"""

from collections.abc import Iterator

import numpy as np
from django.db import connection, transaction
from django.db.models import Count, Min

from readinglist.pagecache import bump_catalog_version

from ..models import ListEntry, Source
from . import blend
from .hooks import co_reading_counts
from .models import SourceNeighbour
from .vectors import CatalogVectors, build_vectors, source_documents

NEIGHBOURS_PER_SOURCE = 8
# Content candidates looked at per source before blending: more than k, so that a link or a
# section can lift a slightly less similar source over a more similar one.
SIMILAR_CANDIDATES = 3 * NEIGHBOURS_PER_SOURCE
# Similarities are computed a block of rows at a time; a block holds about this many cells.
BLOCK_CELLS = 4_000_000


def similar_rows(
    vectors: CatalogVectors, per_row: int, rows: list[int] | None = None
) -> Iterator[tuple[int, np.ndarray, np.ndarray]]:
    """(row, most similar other rows, their cosines) for each of `rows` (default: all), a
    block at a time."""
    count = len(vectors)
    if count < 2 or vectors.matrix.shape[1] == 0:
        return
    wanted = np.arange(count) if rows is None else np.asarray(rows, dtype=np.int64)
    take = min(per_row, count - 1)
    block = max(1, BLOCK_CELLS // count)
    transposed = vectors.matrix.T.tocsr()
    for start in range(0, len(wanted), block):
        chunk = wanted[start : start + block]
        cosines = (vectors.matrix[chunk] @ transposed).toarray()
        cosines[np.arange(len(chunk)), chunk] = -1.0  # never itself
        best = np.argpartition(-cosines, take - 1, axis=1)[:, :take]
        for offset, others in enumerate(best):
            yield int(chunk[offset]), others, cosines[offset, others]


def _published_pairs(pairs, published: set[int]) -> list[tuple[int, int]]:
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


def gather_candidates(vectors: CatalogVectors, targets: set[int] | None = None) -> blend.Candidates:
    """Every candidate neighbour of each source in `targets` (default: every published one)."""
    published = set(vectors.row_of)
    candidates = blend.new_candidates()
    links = Source.related.through.objects.values_list("from_source_id", "to_source_id")
    blend.add_links(candidates, _published_pairs(links, published))
    blend.add_sections(candidates, _section_entries(published))
    counts = co_reading_counts()
    blend.add_co_reading(
        candidates, {pair: n for pair, n in counts.items() if set(pair) <= published}
    )
    rows = None if targets is None else vectors.rows(sorted(targets))
    for row, others, cosines in similar_rows(vectors, SIMILAR_CANDIDATES, rows):
        source_id = int(vectors.ids[row])
        blend.add_similar(
            candidates,
            source_id,
            [(int(vectors.ids[o]), float(c), "") for o, c in zip(others, cosines, strict=True)],
        )
    if targets is not None:
        return {pk: found for pk, found in candidates.items() if pk in targets}
    return candidates


def _reason_text(vectors: CatalogVectors, source_id: int, other_id: int, chosen) -> str:
    if chosen.kind != "similar":
        return chosen.text[:200]
    terms = vectors.shared_terms(vectors.row_of[source_id], vectors.row_of[other_id])
    return ("similar: " + ", ".join(terms))[:200] if terms else "similar content"


def neighbour_rows(
    vectors: CatalogVectors, k: int = NEIGHBOURS_PER_SOURCE, targets: set[int] | None = None
) -> list[SourceNeighbour]:
    rows = []
    for source_id, found in gather_candidates(vectors, targets).items():
        for rank, (other_id, chosen) in enumerate(blend.top(found, k), start=1):
            rows.append(
                SourceNeighbour(
                    source_id=source_id,
                    neighbour_id=other_id,
                    rank=rank,
                    score=round(chosen.score, 6),
                    reason_kind=chosen.kind,
                    reason_text=_reason_text(vectors, source_id, other_id, chosen),
                )
            )
    return rows


def recompute_neighbours(k: int = NEIGHBOURS_PER_SOURCE, changed: set[int] | None = None) -> int:
    """Replace the stored neighbours: of every source, or (given the ids of `changed` sources)
    of those sources and of the ones whose lists they enter or leave. Returns the rows written.

    After a change to a few sources, recomputing only the sources it touches costs a few of
    their rows of similarities instead of all of them (seconds instead of most of a minute at
    10,000 sources). The vectors are rebuilt either way, so other sources' stored scores use the
    previous weights until the next full run (compute_related, daily).
    """
    vectors = build_vectors(*source_documents())
    targets = None if changed is None else affected_sources(vectors, changed, k)
    rows = neighbour_rows(vectors, k, targets)
    with transaction.atomic():
        if targets is None:
            # One statement: a queryset delete would send a signal per row to every receiver.
            with connection.cursor() as cursor:
                table = connection.ops.quote_name(SourceNeighbour._meta.db_table)
                cursor.execute(f"DELETE FROM {table}")
        else:
            SourceNeighbour.objects.filter(source_id__in=targets | changed).delete()
        SourceNeighbour.objects.bulk_create(rows, batch_size=2000)
        # bulk_create sends no signal; the source pages show these rows.
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
