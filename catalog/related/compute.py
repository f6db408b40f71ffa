"""Recompute every published source's stored neighbours, and keep them current.

`recompute_neighbours()` reads the catalog (and co-reading counts from registered providers),
blends the evidence (blend.py) and replaces the SourceNeighbour rows in one transaction. It runs
after any transaction that changed what neighbours depend on (titles, aliases, summaries,
topics, links, list sections; see connect_signals), so the loader, the admin and accepting a
proposal all refresh the rows without calling anything; `manage.py compute_related` runs it by
hand or from cron, which also picks up new co-reading counts.
"""

import threading
from collections.abc import Iterator

import numpy as np
from django.db import connection, models, transaction
from django.db.models.signals import m2m_changed, post_delete, post_save

from readinglist.pagecache import bump_catalog_version

from ..models import ListEntry, ListSection, ReadingList, Source, Topic
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
# Saving only these fields of a source (link checks, re-verification) changes no neighbour.
SOURCE_FIELDS_THAT_MATTER = {"title", "aliases", "summary", "status"}


def similar_rows(
    vectors: CatalogVectors, per_row: int
) -> Iterator[tuple[int, np.ndarray, np.ndarray]]:
    """(row, most similar other rows, their cosines) for every row, a block at a time."""
    count = len(vectors)
    if count < 2 or vectors.matrix.shape[1] == 0:
        return
    take = min(per_row, count - 1)
    block = max(1, BLOCK_CELLS // count)
    transposed = vectors.matrix.T.tocsr()
    for start in range(0, count, block):
        stop = min(start + block, count)
        cosines = (vectors.matrix[start:stop] @ transposed).toarray()
        cosines[np.arange(stop - start), np.arange(start, stop)] = -1.0  # never itself
        best = np.argpartition(-cosines, take - 1, axis=1)[:, :take]
        for offset, rows in enumerate(best):
            yield start + offset, rows, cosines[offset, rows]


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


def gather_candidates(vectors: CatalogVectors) -> blend.Candidates:
    published = set(vectors.row_of)
    candidates = blend.new_candidates()
    links = Source.related.through.objects.values_list("from_source_id", "to_source_id")
    blend.add_links(candidates, _published_pairs(links, published))
    blend.add_sections(candidates, _section_entries(published))
    counts = co_reading_counts()
    blend.add_co_reading(
        candidates, {pair: n for pair, n in counts.items() if set(pair) <= published}
    )
    for row, others, cosines in similar_rows(vectors, SIMILAR_CANDIDATES):
        source_id = int(vectors.ids[row])
        blend.add_similar(
            candidates,
            source_id,
            [(int(vectors.ids[o]), float(c), "") for o, c in zip(others, cosines, strict=True)],
        )
    return candidates


def _reason_text(vectors: CatalogVectors, source_id: int, other_id: int, chosen) -> str:
    if chosen.kind != "similar":
        return chosen.text[:200]
    terms = vectors.shared_terms(vectors.row_of[source_id], vectors.row_of[other_id])
    return ("similar: " + ", ".join(terms))[:200] if terms else "similar content"


def neighbour_rows(
    vectors: CatalogVectors, k: int = NEIGHBOURS_PER_SOURCE
) -> list[SourceNeighbour]:
    rows = []
    for source_id, found in gather_candidates(vectors).items():
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


def recompute_neighbours(k: int = NEIGHBOURS_PER_SOURCE) -> int:
    """Replace every stored neighbour. Returns how many rows were written."""
    vectors = build_vectors(*source_documents())
    rows = neighbour_rows(vectors, k)
    with transaction.atomic():
        # One statement: a queryset delete would send a signal per row to every receiver.
        with connection.cursor() as cursor:
            cursor.execute(
                f"DELETE FROM {connection.ops.quote_name(SourceNeighbour._meta.db_table)}"
            )
        SourceNeighbour.objects.bulk_create(rows, batch_size=2000)
        # bulk_create sends no signal; the source pages show these rows.
        transaction.on_commit(bump_catalog_version)
    return len(rows)


_pending = threading.local()


def _recompute_once() -> None:
    # Every change in a transaction scheduled this; the first to run does the work.
    if getattr(_pending, "changes", 0):
        _pending.changes = 0
        recompute_neighbours()


def _matters(sender, kwargs: dict) -> bool:
    if kwargs.get("signal") is m2m_changed:
        return kwargs["action"].startswith("post_")
    fields = kwargs.get("update_fields")
    if sender is Source and fields is not None:
        return bool(set(fields) & SOURCE_FIELDS_THAT_MATTER)
    return True


def _catalog_changed(sender, **kwargs) -> None:
    if kwargs.get("raw") or not _matters(sender, kwargs):
        return
    _pending.changes = getattr(_pending, "changes", 0) + 1
    transaction.on_commit(_recompute_once, using=kwargs.get("using"))


WATCHED: tuple[type[models.Model], ...] = (Source, Topic, ListEntry, ListSection, ReadingList)


def connect_signals() -> None:
    for model in WATCHED:
        for signal in (post_save, post_delete):
            signal.connect(
                _catalog_changed,
                sender=model,
                dispatch_uid=f"related-{model.__name__}-{id(signal)}",
            )
    for through in (Source.topics.through, Source.related.through):
        m2m_changed.connect(
            _catalog_changed, sender=through, dispatch_uid=f"related-{through.__name__}"
        )
