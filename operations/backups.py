"""Whole-database backup and restore, across releases.

A backup is every row of every model (catalog, readers, their bookmarks and notes, allauth's
email addresses, the admin log) through Django's serializers with natural foreign keys, plus
the schema it was made at (operations/backup_file.py): content types and permissions are left
out (migrate makes them, with ids that may differ) and referred to by natural key; sessions are
left out (people simply log in again); search entries are left out (triggers rebuild them from
the sources).

A restore reads and checks the whole file first, brings the empty database to the backup's
schema, loads the rows there in one transaction, then migrates them forward to this release
(operations/backup_schema.py, operations/historical_rows.py).
"""

import os
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from django.apps import apps
from django.core import serializers
from django.core.management import call_command
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.migrations.loader import MigrationLoader

from readinglist import __version__
from readinglist.pagecache import bump_all_pages

from .backup_file import UnreadableBackup, read_backup, write_backup
from .backup_schema import (
    SchemaMismatch,
    Target,
    applied_migrations,
    migrate_to,
    moves_schema,
    target_for,
)
from .historical_rows import load_rows
from .schema import migrate_if_pending

FORMAT = "exactjson"
# Search entries are derived: the triggers rebuild them as the sources are loaded (and the table
# exists only on PostgreSQL). Jobs' heartbeats describe the scheduler that wrote them, not the
# data: restored, they would call a new site's jobs late until each had run again.
EXCLUDED = [
    "contenttypes",
    "auth.Permission",
    "sessions",
    "search.SearchEntry",
    "operations.JobHeartbeat",
]
# Rows migrate itself creates, which a restore updates in place (by natural key or by id).
CREATED_BY_MIGRATE = {"auth.group", "sites.site"}


class RestoreRefused(Exception):
    pass


def backup(*, output: str | os.PathLike[str], using: str = DEFAULT_DB_ALIAS) -> None:
    """Write the database to `output` (compressed when it ends in .gz, .bz2 or .xz).

    The file holds password hashes, email addresses and private notes, so only its owner may
    read it: it is written under a temporary name that mkstemp creates with mode 0600, and then
    renamed over `output`, which also means a failed backup never leaves half a file there.
    """
    if FORMAT not in serializers.get_serializer_formats():
        serializers.register_serializer(FORMAT, "operations.backup_format")
    target = Path(output).resolve()
    handle, partial = tempfile.mkstemp(
        dir=target.parent, prefix=f".{target.name}.", suffix=target.suffix
    )
    os.close(handle)
    rows_handle, rows_file = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.rows.")
    os.close(rows_handle)
    try:
        migrations = _dump(rows_file, using)
        write_backup(
            partial,
            rows_file=rows_file,
            migrations=migrations,
            version=__version__,
            created=datetime.now(UTC).isoformat().replace("+00:00", "Z"),
        )
        os.replace(partial, target)
    except BaseException:
        Path(partial).unlink(missing_ok=True)
        raise
    finally:
        Path(rows_file).unlink(missing_ok=True)


def _dump(path: str, using: str) -> dict[str, list[str]]:
    """Write the rows to `path`; the applied migrations, read in the same snapshot."""
    connection = connections[using]
    with transaction.atomic(using=using):
        # One snapshot for every table, so a backup taken while people write is consistent.
        if connection.vendor == "postgresql" and not connection.savepoint_ids:
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        call_command(
            "dumpdata",
            format=FORMAT,
            natural_foreign=True,
            exclude=EXCLUDED,
            # Every row, whatever a model's default manager leaves out (private sources).
            use_base_manager=True,
            output=path,
            database=using,
            verbosity=0,
        )
        return applied_migrations(using)


def non_empty_tables(using: str = DEFAULT_DB_ALIAS) -> list[str]:
    excluded = {label.lower() for label in EXCLUDED} | CREATED_BY_MIGRATE
    return [
        model._meta.label
        for model in apps.get_models()
        if model._meta.app_label not in excluded
        and model._meta.label_lower not in excluded
        and model._meta.managed
        and not model._meta.proxy
        and model._base_manager.using(using).exists()
    ]


def restore(
    *, path: str | os.PathLike[str], force: bool = False, using: str = DEFAULT_DB_ALIAS
) -> Target:
    """Load a backup made by this release or an older one; the schema it was loaded at.

    Nothing is changed until the whole file has been read and its schema found. A database that
    already holds data is refused unless `force`, which empties it first. When the backup cannot
    be loaded into an SQLite file this call created, the file is removed again rather than left
    empty beside the project.
    """
    if not Path(path).is_file():
        raise RestoreRefused(f"There is no backup file at {path}. Nothing was changed.")
    try:
        contents = read_backup(path)
        target = target_for(contents, MigrationLoader(None, ignore_no_migrations=True))
    except (UnreadableBackup, SchemaMismatch) as error:
        raise RestoreRefused(str(error)) from error
    created_file = _sqlite_file_not_yet_there(using)
    try:
        _load_at(target, contents.objects, force=force, using=using)
        # Forward to this release: the data migrations since the backup run on its rows.
        migrate_if_pending(using)
    except BaseException:
        if created_file is not None:
            connections[using].close()
            created_file.unlink(missing_ok=True)
        raise
    # Every row may be new: no cached page, anonymous or a reader's, may outlive this.
    bump_all_pages()
    return target


def _load_at(target: Target, objects: list[dict[str, Any]], *, force: bool, using: str) -> None:
    """Empty the database (refused without `force` when it holds rows), bring it to the
    backup's schema and load the rows there.

    At this release's schema, emptying and loading are one transaction, so a backup that fails
    to load leaves the old rows in place. An older schema has to be migrated to in between,
    which SQLite cannot do inside a transaction: the database is emptied first.
    """
    occupied = _occupied_tables(using)
    if occupied and not force:
        raise RestoreRefused(
            "The database is not empty (rows in "
            + ", ".join(occupied)
            + "). Restore into a freshly migrated database, or pass --force to replace "
            "everything in it."
        )
    if occupied and not moves_schema(target, using):
        with transaction.atomic(using=using):
            empty_database(using)
            load_rows(objects, migrate_to(target, using).apps, using)
        return
    if occupied:
        with transaction.atomic(using=using):
            empty_database(using)
    load_rows(objects, migrate_to(target, using).apps, using)


def _occupied_tables(using: str) -> list[str]:
    """The tables holding rows, once a database that has any migrations is at this release's
    schema (so that the way to the backup's schema runs one direction)."""
    if not applied_migrations(using):
        return []
    migrate_if_pending(using)
    return non_empty_tables(using)


def _sqlite_file_not_yet_there(using: str) -> Path | None:
    connection = connections[using]
    if connection.vendor != "sqlite":
        return None
    # Here, where it is in use: a PostgreSQL deployment never loads the SQLite backend.
    from django.db.backends.sqlite3.base import DatabaseWrapper

    if not isinstance(connection, DatabaseWrapper) or connection.is_in_memory_db():
        return None
    database_file = Path(connection.settings_dict["NAME"])
    return None if database_file.exists() else database_file


def empty_database(using: str = DEFAULT_DB_ALIAS) -> None:
    """Delete every row (keeping the schema and what migrate creates), inside the caller's
    transaction."""
    connection = connections[using]
    postgres = connection.vendor == "postgresql"
    if postgres:
        # TRUNCATE refuses tables with deferred foreign-key checks pending in this transaction.
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    call_command("flush", interactive=False, database=using, verbosity=0)
    if postgres:
        # Back to Django's default, so a fixture's forward references load.
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL DEFERRED")
