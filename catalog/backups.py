"""Whole-database backup and restore through Django's serializers.

A backup is every row of every model (catalog, readers, their bookmarks and notes, allauth's
email addresses, the admin log) as gzip'd JSON with natural keys, so it loads into any freshly
migrated database of either vendor: content types and permissions are left out (migrate makes
them, with ids that may differ) and referred to by natural key; sessions are left out (people
simply log in again); search entries are left out (triggers rebuild them from the sources).
"""

import os
import tempfile
from pathlib import Path

from django.apps import apps
from django.core import serializers
from django.core.management import call_command
from django.db import DEFAULT_DB_ALIAS, connections, transaction

from readinglist.pagecache import bump_all_pages

from .schema import migrate_if_pending

FORMAT = "exactjson"
# Search entries are derived: the triggers rebuild them as the sources are loaded (and the table
# exists only on PostgreSQL).
EXCLUDED = ["contenttypes", "auth.Permission", "sessions", "search.SearchEntry"]
# Rows migrate itself creates, which a restore updates in place (by natural key or by id).
CREATED_BY_MIGRATE = {"auth.group", "sites.site"}


class RestoreRefused(Exception):
    pass


def backup(*, output: str | os.PathLike, using: str = DEFAULT_DB_ALIAS) -> None:
    """Write the database to `output` (compressed when it ends in .gz, .bz2 or .xz).

    The file holds password hashes, email addresses and private notes, so only its owner may
    read it: it is written under a temporary name that mkstemp creates with mode 0600, and then
    renamed over `output`, which also means a failed backup never leaves half a file there.
    """
    if FORMAT not in serializers.get_serializer_formats():
        serializers.register_serializer(FORMAT, "catalog.backup_format")
    target = Path(output).resolve()
    # The same suffix, because dumpdata picks the compression from the name it writes to.
    handle, partial = tempfile.mkstemp(
        dir=target.parent, prefix=f".{target.name}.", suffix=target.suffix
    )
    os.close(handle)
    try:
        _dump(partial, using)
        os.replace(partial, target)
    except BaseException:
        Path(partial).unlink(missing_ok=True)
        raise


def _dump(path: str, using: str) -> None:
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
            natural_primary=True,
            exclude=EXCLUDED,
            output=path,
            database=using,
            verbosity=0,
        )


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


def restore(*, path: str | os.PathLike, force: bool = False, using: str = DEFAULT_DB_ALIAS) -> bool:
    """Load a backup, all or nothing; True when the database had to be migrated first.

    A database that already holds data is refused unless `force`, which empties it first
    (inside the same transaction, so a failed load leaves the old data in place). An unmigrated
    database is migrated first. When the backup cannot be loaded into an SQLite file this call
    created, the file is removed again rather than left empty beside the project.
    """
    if not Path(path).is_file():
        raise RestoreRefused(f"There is no backup file at {path}. Nothing was changed.")
    created_file = _sqlite_file_not_yet_there(using)
    try:
        migrated = migrate_if_pending(using)
        _load(path, force=force, using=using)
    except BaseException:
        if created_file is not None:
            connections[using].close()
            created_file.unlink(missing_ok=True)
        raise
    return migrated


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


def _load(path: str | os.PathLike, *, force: bool, using: str) -> None:
    with transaction.atomic(using=using):
        occupied = non_empty_tables(using)
        if occupied and not force:
            raise RestoreRefused(
                "The database is not empty (rows in "
                + ", ".join(occupied)
                + "). Restore into a freshly migrated database, or pass --force to replace "
                "everything in it."
            )
        if occupied:
            empty_database(using)
        call_command("loaddata", str(path), database=using, verbosity=0)
        # Every row may be new: no cached page, anonymous or a reader's, may outlive this.
        transaction.on_commit(bump_all_pages, using=using)


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
