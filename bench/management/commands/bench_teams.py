"""Team-scale benchmark: every signed-in page on a big database against the same page on a
near-empty one, requests interleaved, p50s compared and statements counted.

Both databases live in one PostgreSQL database (--database-url, whose name must contain
"bench"), as two schemas, `bench_big` and `bench_empty`; each request runs with its schema's
search_path, so the two are timed alternately by one process with one warm interpreter. The page
cache is off (CATALOG_PAGE_CACHE=false); other caches are keyed per schema.
"""

from __future__ import annotations

import logging
import os
import statistics
import subprocess
import sys
import time
import warnings
from typing import Any
from urllib.parse import urlparse

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.signals import connection_created
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext

from bench.management.commands.bench_search import CACHE_MIDDLEWARE, child_environment
from bench.search_catalog import build_catalog
from bench.team_data import MEASURED, add_path_and_follows, build_big, build_empty
from catalog.progress import raw_stream

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/readinglist_bench_teams"
SCHEMAS = ("bench_big", "bench_empty")
CHILD_FLAG = "READINGLIST_BENCH_TEAMS_CHILD"
SOURCES = 3000
# The targets issue 33 set: big ÷ empty p50 per reader, and statements equal.
MEDIAN_TARGET, WORST_TARGET = 1.5, 2.0
_current = {"schema": SCHEMAS[0]}


def _set_search_path(sender: object, connection: BaseDatabaseWrapper, **kwargs: Any) -> None:
    with connection.cursor() as cursor:
        cursor.execute(f"SET search_path TO {_current['schema']}, public")


def use_schema(schema: str) -> None:
    """Send every following statement to `schema`, on this connection and any reopened one."""
    _current["schema"] = schema
    if connection.connection is not None:
        _set_search_path(None, connection)


def schema_cache_key(key: str, key_prefix: str, version: int) -> str:
    """Cache keys per schema: the same primary keys mean different rows in each."""
    return f"{_current['schema']}:{key_prefix}:{version}:{key}"


def _triggers_on_the_schemas_own_tables() -> None:
    """The search triggers name their tables `public.…`; in this process they name the table
    the search_path finds, so each schema's triggers sit on its own tables."""
    from search import sql_objects

    definition = sql_objects.Trigger.definition

    # Named `self` as the method it replaces is, so the type checker sees the same signature.
    def unqualified(self: sql_objects.Trigger) -> str:
        return definition(self).replace(f" ON public.{self.table}", f" ON {self.table}")

    sql_objects.Trigger.definition = unqualified  # type: ignore[method-assign]


def pages() -> dict[str, str]:
    return {
        "home": "/",
        "list": "/lists/bench-list-1/",
        "library": "/library/",
        "my notes": "/library/notes/",
        "team notes": "/notes/team/",
        "following": "/library/following/",
        "teams": "/teams/",
        "team": "/teams/{team}/",
        "team members": "/teams/{team}/members/",
        "source": "/sources/{source}/",
    }


# Each measured reader's own team: a median one, and the largest.
TEAM_OF = {"median": MEASURED.median_team, "worst": MEASURED.largest_team}


class Command(BaseCommand):
    help = "Time every signed-in page at team scale against a near-empty database."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--database-url", default=os.environ.get("BENCH_TEAMS_URL", DEFAULT_URL)
        )
        parser.add_argument("--scale", type=float, default=1.0, help="1.0: 5,000 readers")
        parser.add_argument("--runs", type=int, default=15, help="timed requests per page")
        parser.add_argument("--rebuild", action="store_true", help="rebuild the synthetic data")

    def handle(
        self,
        *args: Any,
        database_url: str,
        scale: float,
        runs: int,
        rebuild: bool,
        **options: Any,
    ) -> None:
        name = urlparse(database_url).path.lstrip("/")
        if "bench" not in name or not database_url.startswith("postgres"):
            raise CommandError(
                f"refusing {database_url!r}: use a PostgreSQL database named *bench*"
            )
        if os.environ.get(CHILD_FLAG) == "1":
            self.run_child(scale=scale, runs=runs, rebuild=rebuild)
            return
        self.create_database(database_url, name)
        env = child_environment(database_url) | {CHILD_FLAG: "1", "CATALOG_PAGE_CACHE": "false"}
        command = [sys.executable, "manage.py", "bench_teams", f"--database-url={database_url}"]
        command += [f"--scale={scale}", f"--runs={runs}"] + (["--rebuild"] if rebuild else [])
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

    def run_child(self, *, scale: float, runs: int, rebuild: bool) -> None:
        logging.getLogger("readinglist.request").setLevel(logging.WARNING)
        _triggers_on_the_schemas_own_tables()
        connection_created.connect(_set_search_path, dispatch_uid="bench_teams.search_path")
        with connection.cursor() as cursor:
            for schema in SCHEMAS if rebuild else ():
                cursor.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
            # In public, which both search_paths include: an extension lives in one schema.
            cursor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public")
        for schema in SCHEMAS:
            self.prepare(schema, scale)
        caches = {
            "default": settings.CACHES["default"]
            | {"KEY_FUNCTION": "bench.management.commands.bench_teams.schema_cache_key"}
        }
        middleware = [m for m in settings.MIDDLEWARE if m != CACHE_MIDDLEWARE]
        storages = settings.STORAGES | {
            "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}
        }
        with (
            override_settings(CACHES=caches, MIDDLEWARE=middleware, STORAGES=storages),
            warnings.catch_warnings(),
        ):
            warnings.filterwarnings("ignore", "No directory at", UserWarning)
            self.measure_pages(runs)
            use_schema(SCHEMAS[0])
            self.measure_writes(runs)

    def prepare(self, schema: str, scale: float) -> None:
        from catalog.models import Source

        with connection.cursor() as cursor:
            cursor.execute(f"CREATE SCHEMA IF NOT EXISTS {schema}")
        use_schema(schema)
        call_command("migrate", verbosity=0, interactive=False)
        if not Source.objects.exists():
            started = time.perf_counter()
            build_catalog(SOURCES, self.stdout, raw_stream(self.stderr))
            ids = list(Source.objects.order_by("pk").values_list("pk", flat=True))
            if schema == "bench_big":
                build_big(scale, ids, self.stdout.write)
            else:
                build_empty(ids)
            self.stdout.write(f"{schema}: built in {time.perf_counter() - started:.0f} s")
        # Added to a schema built before they were part of the data, too.
        add_path_and_follows(list(Source.objects.order_by("pk").values_list("pk", flat=True)))

    def clients(self) -> dict[tuple[str, str], Client]:
        from django.contrib.auth import get_user_model

        clients = {}
        for schema in SCHEMAS:
            use_schema(schema)
            for who, email in (("median", MEASURED.median_email), ("worst", MEASURED.worst_email)):
                client = Client()
                client.force_login(get_user_model().objects.get(email=email))
                clients[schema, who] = client
        return clients

    def measure_pages(self, runs: int) -> None:
        from catalog.models import Source

        clients = self.clients()
        use_schema(SCHEMAS[0])
        source = Source.objects.order_by("pk").values_list("slug", flat=True).first()
        self.stdout.write(
            f"\n{'page':<20} {'reader':<7} {'empty ms':>9} {'big ms':>8} {'ratio':>6} "
            f"{'statements':>11} {'KB':>5}"
        )
        for label, pattern in pages().items():
            for who, target in (("median", MEDIAN_TARGET), ("worst", WORST_TARGET)):
                url = pattern.format(source=source, team=TEAM_OF[who])
                times: dict[str, list[float]] = {schema: [] for schema in SCHEMAS}
                statements: dict[str, int] = {}
                size = 0
                for run in range(runs + 2):  # two warm-up rounds
                    for schema in SCHEMAS:
                        use_schema(schema)
                        with CaptureQueriesContext(connection) as ctx:
                            started = time.perf_counter()
                            response = clients[schema, who].get(url)
                            elapsed = (time.perf_counter() - started) * 1000
                        if response.status_code != 200:
                            raise CommandError(f"{url} answered {response.status_code}")
                        statements[schema] = len(ctx.captured_queries)
                        size = len(response.content) if schema == SCHEMAS[0] else size
                        if run >= 2:
                            times[schema].append(elapsed)
                big, empty = (statistics.median(times[s]) for s in SCHEMAS)
                ratio = big / empty
                flag = "" if ratio <= target else f"  OVER {target}"
                same = statements["bench_big"] == statements["bench_empty"]
                counts = f"{statements['bench_big']}/{statements['bench_empty']}"
                self.stdout.write(
                    f"{label:<20} {who:<7} {empty:>9.1f} {big:>8.1f} {ratio:>6.2f} "
                    f"{counts + ('' if same else '!'):>11} {size / 1024:>5.0f}{flag}"
                )

    def measure_writes(self, runs: int) -> None:
        """Where a bookmark toggle and a new note spend their time, on the big database."""
        from catalog.models import Source

        client = self.clients()["bench_big", "median"]
        use_schema(SCHEMAS[0])
        slugs = list(Source.objects.order_by("-pk").values_list("slug", flat=True)[:runs])
        writes = {
            "bookmark toggle": [
                (f"/library/bookmarks/{slug}/", {"status": status})
                for slug in slugs
                for status in ("reading", "read")
            ],
            "add a note": [
                (f"/sources/{slug}/notes/new/", {"body": "Worth it.", "visibility": "private"})
                for slug in slugs
            ],
        }
        self.stdout.write(f"\n{'write':<16} {'p50 ms':>7} {'SQL ms':>7} {'statements':>11}")
        for label, requests in writes.items():
            totals: list[float] = []
            sql: list[float] = []
            counts: list[int] = []
            for url, data in requests:
                with CaptureQueriesContext(connection) as ctx:
                    started = time.perf_counter()
                    response = client.post(url, data, headers={"HX-Request": "true"})
                    totals.append((time.perf_counter() - started) * 1000)
                if response.status_code >= 400:
                    raise CommandError(f"{url} answered {response.status_code}")
                sql.append(sum(float(q["time"]) for q in ctx.captured_queries) * 1000)
                counts.append(len(ctx.captured_queries))
            self.stdout.write(
                f"{label:<16} {statistics.median(totals):>7.1f} {statistics.median(sql):>7.1f} "
                f"{statistics.median(counts):>11.0f}"
            )
