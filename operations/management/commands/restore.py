from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from operations.backups import RestoreRefused, restore


class Command(BaseCommand):
    help = (
        "Load a backup made by `manage.py backup`, by this release or an older one, into an "
        "empty database: the database is brought to the backup's schema, the rows are loaded, "
        "then migrated forward."
    )
    # Some apps' checks open a database connection, which creates an SQLite file: the backup
    # is checked before anything touches the database, and migrate runs the checks itself.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", help="The backup file (.json.gz).")
        parser.add_argument(
            "--force",
            action="store_true",
            help="Replace everything in a database that already holds data.",
        )

    def handle(self, *args: Any, path: str, force: bool, **options: Any) -> None:
        try:
            target = restore(path=path, force=force)
        except RestoreRefused as error:
            raise CommandError(str(error)) from error
        self.stdout.write(f"Loaded at {target.description}, then migrated to this release.")
        self.stdout.write(self.style.SUCCESS(f"Restored {path}"))
