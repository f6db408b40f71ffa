from datetime import UTC, datetime
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from operations.backups import backup


class Command(BaseCommand):
    help = "Write the whole database (catalog and readers' data) to a gzip'd JSON file."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--output",
            "-o",
            help="File to write (default: readinglist-backup-<UTC time>.json.gz).",
        )

    def handle(self, *args: Any, output: str | None = None, **options: Any) -> None:
        output = output or datetime.now(UTC).strftime("readinglist-backup-%Y%m%dT%H%M%SZ.json.gz")
        backup(output=output)
        self.stdout.write(self.style.SUCCESS(f"Backup written to {output}"))
