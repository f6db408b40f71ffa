from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from catalog.catalog_file import DEFAULT_CATALOG, CatalogFileError, read_catalog
from catalog.progress import raw_stream
from catalog.services import load_catalog


class Command(BaseCommand):
    help = "Load the catalog file (the shipped TOML by default, or a JSON export). Idempotent."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", nargs="?", default=str(DEFAULT_CATALOG))

    def handle(self, *args: Any, file: str, **options: Any) -> None:
        try:
            doc = read_catalog(file)
        except CatalogFileError as exc:
            raise CommandError(f"Nothing was loaded. {exc}") from exc
        # A bar redrawn with carriage returns is for a person watching a terminal; in logs and
        # pipes it is noise.
        show_progress = options["verbosity"] > 0 and self.stdout.isatty() and self.stderr.isatty()
        report = load_catalog(doc, progress=show_progress, stream=raw_stream(self.stderr))
        for line in report.lines():
            self.stdout.write(line)
        if report.changed:
            self.stdout.write(self.style.SUCCESS(f"Loaded {file}."))
        else:
            self.stdout.write(self.style.SUCCESS(f"Nothing to change: {file} is already loaded."))
