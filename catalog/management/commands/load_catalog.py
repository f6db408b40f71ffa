from django.core.management.base import BaseCommand, CommandError

from catalog.catalog_file import DEFAULT_CATALOG, CatalogFileError, read_catalog
from catalog.services import load_catalog


class Command(BaseCommand):
    help = "Load the catalog file (the shipped TOML by default, or a JSON export). Idempotent."

    def add_arguments(self, parser):
        parser.add_argument("file", nargs="?", default=str(DEFAULT_CATALOG))

    def handle(self, *args, file, **options):
        try:
            doc = read_catalog(file)
        except CatalogFileError as exc:
            raise CommandError(f"Nothing was loaded. {exc}") from exc
        report = load_catalog(doc, progress=options["verbosity"] > 0, stream=self.stderr._out)
        for line in report.lines():
            self.stdout.write(line)
        if report.changed:
            self.stdout.write(self.style.SUCCESS(f"Loaded {file}."))
        else:
            self.stdout.write(self.style.SUCCESS(f"Nothing to change: {file} is already loaded."))
