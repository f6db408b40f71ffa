from django.core.management.base import BaseCommand, CommandError

from catalog.backups import RestoreRefused, restore


class Command(BaseCommand):
    help = "Load a backup made by `manage.py backup` into a freshly migrated database."

    def add_arguments(self, parser):
        parser.add_argument("path", help="The backup file (.json.gz).")
        parser.add_argument(
            "--force",
            action="store_true",
            help="Replace everything in a database that already holds data.",
        )

    def handle(self, *args, path, force, **options):
        try:
            restore(path=path, force=force)
        except RestoreRefused as error:
            raise CommandError(str(error)) from error
        self.stdout.write(self.style.SUCCESS(f"Restored {path}"))
