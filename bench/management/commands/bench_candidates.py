"""Measure the curator's inbox: relevance cut and topics on a labelled month, and speed."""

import time
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction

from bench.candidates_month import (
    Labelled,
    file_documents,
    labelled_month,
    quality,
    synthetic_entries,
)
from candidates.known import known_keys
from candidates.models import Candidate
from candidates.scoring import Scorer, build_scorer
from candidates.services import add_entries

FLOORS = {"recall": 0.9, "precision": 0.6, "topic_top3": 0.9}
SPEED_ENTRIES = 10_000
SPEED_BUDGET_SECONDS = 60.0


class Command(BaseCommand):
    help = (
        "Precision and recall of the candidates' relevance cut and topic accuracy on a labelled "
        "month of arXiv listings, and the time to process 10,000 feed entries."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--entries", type=int, default=SPEED_ENTRIES)
        parser.add_argument("--no-speed", action="store_true", help="Skip the timing.")

    def handle(self, *args: Any, **options: Any) -> None:
        papers = labelled_month()
        scorer = build_scorer(file_documents())
        found = quality(scorer, papers)
        self.stdout.write(
            f"Labelled month: {found.papers} papers, {found.relevant} relevant; "
            f"cut {settings.CANDIDATES_RELEVANCE_CUT} keeps {found.kept}."
        )
        for name, value in (
            ("recall", found.recall),
            ("precision", found.precision),
            ("topic_top1", found.topic_top1),
            ("topic_top3", found.topic_top3),
        ):
            floor = FLOORS.get(name)
            verdict = "" if floor is None else (" ok" if value >= floor else " BELOW")
            shown = f"floor {floor:.2f}" if floor is not None else "no floor"
            self.stdout.write(f"  {name:<11} {value:.2f}  ({shown}){verdict}")
        if not options["no_speed"]:
            self._speed(papers, scorer, options["entries"])

    def _speed(self, papers: list[Labelled], scorer: Scorer, count: int) -> None:
        entries = synthetic_entries(papers, count)
        with transaction.atomic():
            started = time.perf_counter()
            known = known_keys()
            added = add_entries(
                entries, origin=Candidate.Origin.ARXIV, feed="bench", scorer=scorer, known=known
            )
            first = time.perf_counter() - started
            started = time.perf_counter()
            again = add_entries(
                entries,
                origin=Candidate.Origin.ARXIV,
                feed="bench",
                scorer=scorer,
                known=known_keys(),
            )
            second = time.perf_counter() - started
            transaction.set_rollback(True)
        self.stdout.write(
            f"{count:,} entries: first run {first:.1f} s ({len(added.new):,} added), "
            f"second run {second:.1f} s ({len(again.new)} added); "
            f"budget {SPEED_BUDGET_SECONDS:.0f} s each"
        )
