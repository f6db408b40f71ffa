"""Benchmark "For you" (and the related-sources computation) on a synthetic catalog.

The catalog is built by bench_search's builder in a database of its own
(`readinglist_bench_foryou` unless READINGLIST_BENCH_DB says otherwise), never the one in
DATABASE_URL; the command re-runs itself in a subprocess pointed at it. One reader saves
--bookmarks sources, and the page is rendered --runs times after one cold render (the first
render after a catalog change builds the TF-IDF vectors; later ones reuse them).
"""

import logging
import os
import random
import statistics
import subprocess
import sys
import time
from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError, CommandParser
from django.db import connection
from django.test import Client, override_settings

# Set before bench_search reads it: bench_search keeps its 100,000 sources in its own database.
os.environ.setdefault("READINGLIST_BENCH_DB", "readinglist_bench_foryou")

from accounts.models import User
from bench.management.commands import bench_search

TARGET_MS = 30.0


class Command(bench_search.Command):
    help = 'Time "For you" for a reader with 500 bookmarks among 10,000 synthetic sources.'

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--sources", type=int, default=10_000)
        parser.add_argument("--bookmarks", type=int, default=500)
        parser.add_argument("--runs", type=int, default=20, help="timed renders")
        parser.add_argument("--rebuild", action="store_true", help="rebuild the synthetic data")

    def handle(self, *args: Any, sources: int, runs: int, rebuild: bool, **options: Any) -> None:
        # From the options, not a parameter of its own: bench_search's handle takes no such
        # argument, and this command must stay callable as that one is.
        bookmarks: int = options["bookmarks"]
        self.verbosity = options["verbosity"]
        if os.environ.get(bench_search.CHILD_FLAG) == "1":
            self.run_foryou(sources=sources, bookmarks=bookmarks, runs=runs, rebuild=rebuild)
            return
        env = bench_search.child_environment(self.bench_database_url())
        command = [sys.executable, "manage.py", "bench_foryou", f"--sources={sources}"]
        command += [f"--bookmarks={bookmarks}", f"--runs={runs}"] + (
            ["--rebuild"] if rebuild else []
        )
        result = subprocess.run(command, env=env, cwd=settings.BASE_DIR, check=False)
        if result.returncode:
            raise CommandError(f"the benchmark process failed ({result.returncode})")

    def run_foryou(self, *, sources: int, bookmarks: int, runs: int, rebuild: bool) -> None:
        name = str(connection.settings_dict["NAME"])
        if bench_search.BENCH_PREFIX not in name:
            raise CommandError(f"refusing to benchmark against {name!r}")
        # A log line per timed request would bury the figures.
        logging.getLogger("readinglist.request").setLevel(logging.WARNING)
        call_command("migrate", verbosity=0, interactive=False)
        from catalog.models import Source

        if rebuild or Source.objects.count() != sources:
            self.build(sources)
        reader = self.reader_with(bookmarks)
        self.time_related()
        self.time_page(reader, runs)
        self.time_svm_anchor(reader)

    def reader_with(self, count: int) -> User:
        from django.contrib.auth import get_user_model

        from catalog.models import Source
        from library.models import Bookmark

        reader, _ = get_user_model().objects.get_or_create(email="bench-reader@example.com")
        Bookmark.objects.filter(user=reader).delete()
        rng = random.Random(20261201)
        ids = list(Source.objects.values_list("pk", flat=True))
        statuses = ["read", "read", "reading", "to_read"]
        Bookmark.objects.bulk_create(
            Bookmark(user=reader, source_id=pk, status=rng.choice(statuses))
            for pk in rng.sample(ids, min(count, len(ids)))
        )
        return reader

    def time_related(self) -> None:
        from catalog.models import Source
        from catalog.related.compute import recompute_neighbours

        started = time.perf_counter()
        written = recompute_neighbours()
        full = time.perf_counter() - started
        one = Source.objects.order_by("pk").values_list("pk", flat=True).first()
        started = time.perf_counter()
        recompute_neighbours(changed={one} if one else set())
        single = time.perf_counter() - started
        self.stdout.write(
            f"related sources: {written:,} rows for the whole catalog in {full:.2f} s; "
            f"after one source changes, {single:.2f} s"
        )

    def time_page(self, reader: User, runs: int) -> None:
        from catalog.models import Source
        from library.models import Bookmark

        client = Client()
        client.force_login(reader)
        # Uncached renders, and static URLs without a collectstatic manifest.
        middleware = [m for m in settings.MIDDLEWARE if "cach" not in m.lower()]
        storages = settings.STORAGES | {
            "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}
        }
        with override_settings(MIDDLEWARE=middleware, STORAGES=storages):
            started = time.perf_counter()
            assert client.get("/library/for-you/").status_code == 200
            cold = (time.perf_counter() - started) * 1000
            times: list[float] = []
            for _ in range(runs):
                started = time.perf_counter()
                response = client.get("/library/for-you/")
                times.append((time.perf_counter() - started) * 1000)
                assert response.status_code == 200
        p50 = statistics.median(times)
        p95 = sorted(times)[max(0, round(0.95 * len(times)) - 1)]
        sources = Source.objects.count()
        saved = Bookmark.objects.filter(user=reader).count()
        verdict = "within" if p50 <= TARGET_MS else "OVER"
        self.stdout.write(
            f"For you, {sources:,} sources, {saved} bookmarks: p50 {p50:.1f} ms, p95 {p95:.1f} ms "
            f"(target {TARGET_MS:.0f} ms: {verdict}); first render after a catalog change "
            f"{cold:.0f} ms (builds the TF-IDF vectors)"
        )

    def time_svm_anchor(self, reader: User) -> None:
        """arxiv-sanity-lite's per-reader linear SVM, timed on the same vectors, for comparison."""
        import numpy as np
        from sklearn.svm import LinearSVC

        from catalog.related.vectors import catalog_vectors
        from library.models import Bookmark

        vectors = catalog_vectors()
        labels = np.zeros(len(vectors), dtype=np.int8)
        labels[
            vectors.rows(Bookmark.objects.filter(user=reader).values_list("source_id", flat=True))
        ] = 1
        started = time.perf_counter()
        svm = LinearSVC(class_weight="balanced", C=0.01, tol=1e-6, max_iter=2000)
        svm.fit(vectors.matrix, labels)
        svm.decision_function(vectors.matrix)
        elapsed = (time.perf_counter() - started) * 1000
        self.stdout.write(f"for comparison, a per-reader LinearSVC (fit + score): {elapsed:.0f} ms")
