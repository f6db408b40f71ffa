import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from catalog.exports import catalog_document


class Command(BaseCommand):
    help = "Write the catalog as JSON (lists, tiers, topics, sources), to stdout or --output."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--output", "-o", help="File to write; stdout when omitted.")

    def handle(self, *args: Any, output: str | None = None, **options: Any) -> None:
        text = json.dumps(catalog_document(), indent=2, ensure_ascii=False) + "\n"
        if output:
            with open(output, "w", encoding="utf-8") as handle:
                handle.write(text)
            self.stderr.write(f"Wrote {output}.")
        else:
            sys.stdout.write(text)
