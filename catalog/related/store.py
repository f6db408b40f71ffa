"""Writing computed neighbours: only the rows that differ from the stored ones.

A full recompute at 10,000 sources yields 80,000 rows. Writing them all through bulk_create
(a model instance and nine SQL parameters per row) took over half of the run, and after a
typical change most rows come out as they were. So the stored rows are read as tuples, the ones
no longer computed are deleted by id, and only new ones are inserted: by COPY on PostgreSQL,
executemany elsewhere. Rows that stay keep their ids, and no signal is sent for any row (a
queryset delete would send one per row to every receiver).
"""

from django.db import connection, transaction
from django.db.backends.utils import CursorWrapper

from .models import SourceNeighbour

COLUMNS = ("source_id", "neighbour_id", "rank", "score", "reason_kind", "reason_text")
Row = tuple[int, int, int, float, str, str]
DELETE_CHUNK = 500  # ids per DELETE elsewhere: SQLite limits the parameters of a statement
# Held for the write of each recompute (PostgreSQL): two writers at once (the worker and the
# daily command) would each insert rows the other also inserts.
LOCK_KEY = 0x52454C41  # "RELA"


def replace_neighbours(rows: list[Row], sources: set[int] | None = None) -> bool:
    """Make the stored neighbours of `sources` (None: of every source) exactly `rows`, in one
    transaction. Returns whether any row changed."""
    table = connection.ops.quote_name(SourceNeighbour._meta.db_table)
    with transaction.atomic(), connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [LOCK_KEY])
        stored = SourceNeighbour.objects.all()
        if sources is not None:
            stored = stored.filter(source_id__in=sources)
        existing = {tuple(row[1:]): row[0] for row in stored.values_list("pk", *COLUMNS)}
        wanted = set(rows)
        stale = [pk for row, pk in existing.items() if row not in wanted]
        fresh = [row for row in rows if row not in existing]
        _delete(cursor, table, stale)
        _insert(cursor, table, fresh)
    return bool(stale or fresh)


def _delete(cursor: CursorWrapper, table: str, ids: list[int]) -> None:
    pk_column = SourceNeighbour._meta.pk.column
    assert pk_column is not None  # None only for a field not attached to a model
    pk = connection.ops.quote_name(pk_column)
    if connection.vendor == "postgresql":
        # One statement with an array: 80,000 ids in chunks of IN lists took a second.
        if ids:
            cursor.execute(f"DELETE FROM {table} WHERE {pk} = ANY(%s)", [ids])
        return
    for start in range(0, len(ids), DELETE_CHUNK):
        chunk = ids[start : start + DELETE_CHUNK]
        marks = ", ".join(["%s"] * len(chunk))
        cursor.execute(f"DELETE FROM {table} WHERE {pk} IN ({marks})", chunk)


def _insert(cursor: CursorWrapper, table: str, rows: list[Row]) -> None:
    if not rows:
        return
    columns = ", ".join(connection.ops.quote_name(name) for name in COLUMNS)
    if connection.vendor == "postgresql":
        with cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)
    else:
        marks = ", ".join(["%s"] * len(COLUMNS))
        cursor.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})", rows)
