"""Whole-database backup and restore through Django's serializers.

A backup is every row of every model (catalog, readers, their bookmarks and notes, allauth's
email addresses, the admin log) as gzip'd JSON with natural keys, so it loads into any freshly
migrated database of either vendor: content types and permissions are left out (migrate makes
them, with ids that may differ) and referred to by natural key; sessions are left out (people
simply log in again); search entries are left out (triggers rebuild them from the sources).
"""

from django.apps import apps
from django.core import serializers
from django.core.management import call_command
from django.db import DEFAULT_DB_ALIAS, connections, transaction

from readinglist.pagecache import bump_all_pages

FORMAT = "exactjson"
# Search entries are derived: the triggers rebuild them as the sources are loaded (and the table
# exists only on PostgreSQL).
EXCLUDED = ["contenttypes", "auth.Permission", "sessions", "catalog.SearchEntry"]
# Rows migrate itself creates, which a restore updates in place (by natural key or by id).
CREATED_BY_MIGRATE = {"auth.group", "sites.site"}


class RestoreRefused(Exception):
    pass


def backup(*, output, using=DEFAULT_DB_ALIAS):
    """Write the database to `output` (compressed when it ends in .gz, .bz2 or .xz)."""
    if FORMAT not in serializers.get_serializer_formats():
        serializers.register_serializer(FORMAT, "catalog.backup_format")
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
            output=str(output),
            database=using,
            verbosity=0,
        )


def non_empty_tables(using=DEFAULT_DB_ALIAS):
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


def restore(*, path, force=False, using=DEFAULT_DB_ALIAS):
    """Load a backup into a migrated database, all or nothing.

    A database that already holds data is refused unless `force`, which empties it first
    (inside the same transaction, so a failed load leaves the old data in place).
    """
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


def empty_database(using=DEFAULT_DB_ALIAS):
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
