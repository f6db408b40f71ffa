"""The team page at two sizes: a team of 10 against one of 1,000 members with 50 sessions, both
following the same lists, their owners' pages requested alternately and the p50s compared.

The data lives in its own PostgreSQL database (--database-url, whose name must contain "bench"),
built once; the measuring process runs with production settings and the page cache off, like
bench_teams. The target: the large team's p50 within 2x of the small one's, with the same
statements.
"""

from __future__ import annotations

import logging
import os
import random
import statistics
import subprocess
import sys
import time
import warnings
from argparse import ArgumentParser
from urllib.parse import urlparse

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext

from bench.management.commands.bench_search import CACHE_MIDDLEWARE, child_environment
from bench.search_catalog import build_catalog
from bench.team_size_data import Shape, build_team, settle

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/readinglist_bench_team_size"
CHILD_FLAG = "READINGLIST_BENCH_TEAM_SIZE_CHILD"
SOURCES = 300
SMALL_SLUG, LARGE_SLUG = "bench-small-team", "bench-large-team"
TARGET = 2.0


class Command(BaseCommand):
    help = "Time the team page for a team of 10 and one of 1,000 members, interleaved."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "--database-url", default=os.environ.get("BENCH_TEAM_SIZE_URL", DEFAULT_URL)
        )
        parser.add_argument("--small", type=int, default=10, help="members of the small team")
        parser.add_argument("--members", type=int, default=1000, help="members of the large")
        parser.add_argument("--sessions", type=int, default=50, help="sessions of the large")
        parser.add_argument("--runs", type=int, default=15, help="timed requests per team")
        parser.add_argument("--rebuild", action="store_true", help="rebuild the synthetic data")

    def handle(
        self, *args: object, database_url: str, runs: int, rebuild: bool, **sizes: int
    ) -> None:
        name = urlparse(database_url).path.lstrip("/")
        if "bench" not in name or not database_url.startswith("postgres"):
            raise CommandError(
                f"refusing {database_url!r}: use a PostgreSQL database named *bench*"
            )
        small, members, sessions = sizes["small"], sizes["members"], sizes["sessions"]
        if os.environ.get(CHILD_FLAG) == "1":
            shapes = (Shape(SMALL_SLUG, small, 2), Shape(LARGE_SLUG, members, sessions))
            return self.run_child(shapes, runs=runs, rebuild=rebuild)
        self.create_database(database_url, name)
        env = child_environment(database_url) | {CHILD_FLAG: "1", "CATALOG_PAGE_CACHE": "false"}
        command = [sys.executable, "manage.py", "bench_team_size", f"--database-url={database_url}"]
        command += [f"--small={small}", f"--members={members}", f"--sessions={sessions}"]
        command += [f"--runs={runs}"] + (["--rebuild"] if rebuild else [])
        result = subprocess.run(command, env=env, cwd=settings.BASE_DIR, check=False)
        if result.returncode:
            raise CommandError(f"the benchmark process failed ({result.returncode})")

    def create_database(self, url: str, name: str) -> None:
        import psycopg

        admin = url.rsplit("/", 1)[0] + "/postgres"
        with psycopg.connect(admin, autocommit=True) as conn:
            if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
                conn.execute(f'CREATE DATABASE "{name}"')
                self.stdout.write(f"Created database {name}")

    # -- In the child process, on the benchmark database ------------------------------------

    def run_child(self, shapes: tuple[Shape, Shape], *, runs: int, rebuild: bool) -> None:
        from teams.models import Team

        logging.getLogger("readinglist.request").setLevel(logging.WARNING)
        call_command("migrate", verbosity=0, interactive=False)
        built = {team.slug: team.memberships.count() for team in Team.objects.all()}
        if rebuild or built != {shape.slug: shape.members for shape in shapes}:
            self.build(shapes)
        middleware = [m for m in settings.MIDDLEWARE if m != CACHE_MIDDLEWARE]
        storages = settings.STORAGES | {
            "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}
        }
        with (
            override_settings(MIDDLEWARE=middleware, STORAGES=storages),
            warnings.catch_warnings(),
        ):
            warnings.filterwarnings("ignore", "No directory at", UserWarning)
            self.measure(shapes, runs)

    def build(self, shapes: tuple[Shape, Shape]) -> None:
        from catalog.models import Source
        from teams.models import Team

        started = time.perf_counter()
        get_user_model().objects.filter(email__startswith="bench-").delete()
        Team.objects.all().delete()
        build_catalog(SOURCES, self.stdout, sys.stderr)
        ids = list(Source.objects.order_by("pk").values_list("pk", flat=True))
        rng = random.Random(20261202)
        for shape in shapes:
            build_team(shape, ids, rng)
            self.stdout.write(f"{shape.slug}: {shape.members:,} members, {shape.sessions} sessions")
        settle()
        self.stdout.write(f"built in {time.perf_counter() - started:.0f} s")

    def measure(self, shapes: tuple[Shape, Shape], runs: int) -> None:
        clients = {}
        for shape in shapes:
            clients[shape.slug] = Client()
            owner = get_user_model().objects.get(email=f"{shape.slug}-0@example.com")
            clients[shape.slug].force_login(owner)
        small, large = shapes
        self.stdout.write(
            f"\n{'page':<24} {f'{small.members} ms':>9} {f'{large.members:,} ms':>9} "
            f"{'ratio':>6} {'statements':>11} {'KB':>9}"
        )
        for label, pattern in (("team", "/teams/{}/"), ("team members", "/teams/{}/members/")):
            times: dict[str, list[float]] = {shape.slug: [] for shape in shapes}
            statements, sizes = {}, {}
            for run in range(runs + 2):  # two warm-up rounds
                for shape in shapes:
                    with CaptureQueriesContext(connection) as ctx:
                        started = time.perf_counter()
                        response = clients[shape.slug].get(pattern.format(shape.slug))
                        elapsed = (time.perf_counter() - started) * 1000
                    if response.status_code != 200:
                        raise CommandError(f"{pattern} answered {response.status_code}")
                    statements[shape.slug] = len(ctx.captured_queries)
                    sizes[shape.slug] = len(response.content) / 1024
                    if run >= 2:
                        times[shape.slug].append(elapsed)
            low, high = (statistics.median(times[shape.slug]) for shape in shapes)
            ratio = high / low
            counts = f"{statements[large.slug]}/{statements[small.slug]}"
            same = statements[large.slug] == statements[small.slug]
            self.stdout.write(
                f"{label:<24} {low:>9.1f} {high:>9.1f} {ratio:>6.2f} "
                f"{counts + ('' if same else '!'):>11} "
                f"{sizes[small.slug]:>4.0f}/{sizes[large.slug]:<4.0f}"
                + ("" if ratio <= TARGET else f"  OVER {TARGET}")
            )
