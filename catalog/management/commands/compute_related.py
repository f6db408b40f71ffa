import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from catalog.related.compute import NEIGHBOURS_PER_SOURCE, recompute_neighbours


class Command(BaseCommand):
    # Run by the one schedule, readinglist/schedule.py.
    periodic = True
    help = (
        "Recompute every source's related sources (TF-IDF similarity, links, list sections and "
        "co-reading). Catalog changes do this by themselves; run it from cron to pick up new "
        "co-reading."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--k", type=int, default=NEIGHBOURS_PER_SOURCE, help="neighbours kept per source"
        )

    def handle(self, *args: Any, k: int, **options: Any) -> None:
        started = time.perf_counter()
        written = recompute_neighbours(k=max(1, k))
        elapsed = time.perf_counter() - started
        self.stdout.write(f"Stored {written} related sources in {elapsed:.2f} s.")
