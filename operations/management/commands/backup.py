from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from operations.backups import backup


class Command(BaseCommand):
    help = (
        "Write the whole database (catalog and readers' data) and the schema it is at to a "
        "gzip'd JSON file, which `restore` loads into this release or a later one."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--output",
            "-o",
            help="File to write (default: readinglist-backup-<UTC time>.json.gz in BACKUP_DIR).",
        )

    def handle(self, *args: Any, output: str | None = None, **options: Any) -> None:
        target = Path(output) if output else default_path()
        try:
            backup(output=target)
        except OSError as error:
            raise CommandError(
                f"Cannot write the backup to {target}: {error.strerror or error}. Give --output "
                "a file in a writable folder, or set BACKUP_DIR (the compose stack mounts the "
                "backups volume at /backups). Nothing was written."
            ) from error
        self.stdout.write(self.style.SUCCESS(f"Backup written to {target}"))


def default_path() -> Path:
    name = datetime.now(UTC).strftime("readinglist-backup-%Y%m%dT%H%M%SZ.json.gz")
    return Path(settings.BACKUP_DIR) / name
