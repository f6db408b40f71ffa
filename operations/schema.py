"""Bring a database's schema up to date for commands that need it: restore, create_maintainer."""

from django.core.management import call_command
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.executor import MigrationExecutor


def pending_migrations(using: str = DEFAULT_DB_ALIAS) -> list[str]:
    executor = MigrationExecutor(connections[using])
    plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    return [f"{migration.app_label}.{migration.name}" for migration, _backwards in plan]


def migrate_if_pending(using: str = DEFAULT_DB_ALIAS) -> bool:
    """Apply any unapplied migrations; True when there were some.

    Only when there are: every migrate, even one with nothing to apply, rewrites the site record
    from SITE_DOMAIN (operations/site_record.py), and a command run in passing, with whatever
    SITE_DOMAIN its shell has, must not move the site's address.
    """
    if not pending_migrations(using):
        return False
    call_command("migrate", database=using, interactive=False, verbosity=0)
    return True
