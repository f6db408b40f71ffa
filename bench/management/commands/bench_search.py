"""Benchmark /sources/ search against a synthetic catalog of 100,000 sources.

The catalog is built in a separate database, never the one in DATABASE_URL: on PostgreSQL a
database named `readinglist_bench` on the same server, on SQLite a file in the temp directory.
The command re-runs itself in a subprocess pointed at that database, so nothing here can write
to the real catalog.
"""

import logging
import os
import re
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Callable, Sequence
from typing import Any
from urllib.parse import quote

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client, override_settings

from bench.query_times import QueryTimes, median_ratio, pool
from bench.search_catalog import QUERIES, build_catalog
from catalog.progress import raw_stream

# The benchmark's own database. Another name (the smoke test uses one) must still start with
# this, so the guard in run_benchmark can tell a benchmark database from a real catalog.
BENCH_PREFIX = "readinglist_bench"
BENCH_DB = os.environ.get("READINGLIST_BENCH_DB", BENCH_PREFIX)
if not re.fullmatch(rf"{BENCH_PREFIX}\w*", BENCH_DB):
    raise ImproperlyConfigured(f"READINGLIST_BENCH_DB must start with {BENCH_PREFIX!r}")
CHILD_FLAG = "READINGLIST_BENCH_CHILD"
CACHE_MIDDLEWARE = "readinglist.pagecache.middleware.PageCacheMiddleware"
# A page may cost at most this many times its floors (or, for a rare word, its own SQL).
FLOOR_BUDGET = 1.5
# A described query may cost at most this many times a common word's page.
DESCRIBED_BUDGET = 2.0
# SQL and its parameters, as the view ran it: replayed on a bare cursor.
Statement = tuple[str, Sequence[Any]]


def child_environment(database_url: str) -> dict[str, str]:
    """The environment a benchmark runs its measuring child in: production settings on the
    benchmark database, a process-local cache, quiet logs."""
    return os.environ | {
        CHILD_FLAG: "1",
        "DATABASE_URL": database_url,
        "DEBUG": "false",
        "SECRET_KEY": os.environ.get("SECRET_KEY") or "bench-only-secret-key-not-for-production",
        "SECURE_SSL_REDIRECT": "false",
        "ALLOWED_HOSTS": "testserver",
        "CACHE_URL": "locmemcache://",
        "LOG_LEVEL": "WARNING",
    }


class Command(BaseCommand):
    help = "Time /sources/ against 100,000 synthetic sources in a separate database."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--sources", type=int, default=100_000)
        parser.add_argument("--runs", type=int, default=7, help="timed runs of each query")
        parser.add_argument("--rebuild", action="store_true", help="rebuild the synthetic data")
        parser.add_argument(
            "--relevance",
            choices=("both", "only", "skip"),
            default="both",
            help="the judged queries' figures beside BM25 (on the shipped catalog, in a database "
            "of their own), the timings, or both",
        )

    def handle(
        self, *args: Any, sources: int, runs: int, rebuild: bool, relevance: str, **options: Any
    ) -> None:
        self.verbosity = options["verbosity"]
        if os.environ.get(CHILD_FLAG) == "1":
            self.run_benchmark(sources=sources, runs=runs, rebuild=rebuild)
            return
        if relevance != "skip":
            self.print_relevance()
        if relevance == "only":
            return
        env = child_environment(self.bench_database_url())
        command = [sys.executable, "manage.py", "bench_search", f"--sources={sources}"]
        command += [f"--runs={runs}", f"--verbosity={self.verbosity}"]
        command += ["--rebuild"] if rebuild else []
        result = subprocess.run(command, env=env, cwd=settings.BASE_DIR, check=False)
        if result.returncode:
            raise CommandError(f"the benchmark process failed ({result.returncode})")

    def print_relevance(self) -> None:
        """nDCG@10, MRR@10, recall@5 and queries with no result per group of the judged set,
        beside BM25 over the same text, on the shipped catalog loaded into a database of its
        own (created and dropped here, as a test database is)."""
        from bench.relevance import (
            FRESH_QUERIES,
            HELDOUT_QUERIES,
            JUDGED_QUERIES,
            PARAPHRASE_QUERIES,
            UNCOVERED_QUERIES,
            bm25_ranker,
            evaluate,
            judged_queries,
            report_lines,
            search_ranker,
        )
        from catalog.catalog_file import read_catalog
        from catalog.services import load_catalog

        if connection.vendor == "postgresql":
            connection.settings_dict["TEST"]["NAME"] = f"{BENCH_DB}_relevance"
        creation = connection.creation
        old_name = creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
        figures = []
        try:
            load_catalog(read_catalog(), progress=False)
            sets = (
                ("judged", JUDGED_QUERIES),
                ("held-out", HELDOUT_QUERIES),
                ("fresh held-out", FRESH_QUERIES),
                ("paraphrase", PARAPHRASE_QUERIES),
                ("uncovered", UNCOVERED_QUERIES),
            )
            for name, path in sets:
                queries = judged_queries(path)
                ours = evaluate(queries, search_ranker())
                figures.append((name, len(queries), ours, evaluate(queries, bm25_ranker())))
        finally:
            creation.destroy_test_db(old_name, verbosity=0)
        for name, count, ours, baseline in figures:
            self.stdout.write(
                f"\nRelevance: {count} {name} queries on the shipped catalog, {connection.vendor}; "
                "BM25 over title, aliases, summary, keywords and topics, stemmed\n"
            )
            for line in report_lines(ours, baseline):
                self.stdout.write(line)

    def bench_database_url(self) -> str:
        db = settings.DATABASES["default"]
        if connection.vendor == "postgresql":
            self.create_postgres_database(db)
            user = quote(db.get("USER") or "", safe="")
            password = quote(db.get("PASSWORD") or "", safe="")
            auth = f"{user}:{password}@" if password else f"{user}@"
            host = f"{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}"
            return f"postgres://{auth}{host}/{BENCH_DB}"
        path = os.path.join(tempfile.gettempdir(), f"{BENCH_DB}.sqlite3")
        self.stdout.write(f"SQLite: the benchmark database is {path}")
        return f"sqlite:///{path}"

    def create_postgres_database(self, db: dict[str, Any]) -> None:
        import psycopg

        params: dict[str, Any] = {
            "dbname": "postgres",
            "user": db.get("USER") or None,
            "password": db.get("PASSWORD") or None,
            "host": db.get("HOST") or None,
            "port": db.get("PORT") or None,
        }
        with psycopg.connect(**{k: v for k, v in params.items() if v}, autocommit=True) as conn:
            exists = conn.execute(
                "SELECT 1 FROM pg_database WHERE datname = %s", [BENCH_DB]
            ).fetchone()
            if not exists:
                conn.execute(f'CREATE DATABASE "{BENCH_DB}"')
                self.stdout.write(f"Created database {BENCH_DB}")

    # -- In the subprocess, connected to the benchmark database ----------------------------------

    def run_benchmark(self, *, sources: int, runs: int, rebuild: bool) -> None:
        name = str(connection.settings_dict["NAME"])
        if not name.endswith(BENCH_DB) and not name.endswith(f"{BENCH_DB}.sqlite3"):
            raise CommandError(f"refusing to benchmark against {name!r}")
        logging.getLogger("readinglist.request").setLevel(logging.WARNING)
        migrated = pending_migrations()
        call_command("migrate", verbosity=0, interactive=False)
        from catalog.models import Source

        if rebuild or Source.objects.count() != sources:
            self.build(sources)
        elif migrated:
            compact()
        # Uncached renders (the page cache would answer repeats from memory), and static URLs
        # without a collectstatic manifest.
        middleware = [m for m in settings.MIDDLEWARE if m != CACHE_MIDDLEWARE]
        storages = settings.STORAGES | {
            "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}
        }
        with (
            override_settings(MIDDLEWARE=middleware, STORAGES=storages),
            warnings.catch_warnings(),
        ):
            # whitenoise notes that no collectstatic has run; the benchmark serves no files.
            warnings.filterwarnings("ignore", "No directory at", UserWarning)
            self.measure(runs)

    def build(self, total: int) -> None:
        build_catalog(total, self.stdout, raw_stream(self.stderr))

    def measure(self, runs: int) -> None:
        """Each query's page, its SQL replayed, and (PostgreSQL) its two floors, timed in turn
        within every run: the machine's speed drifts, and figures taken minutes apart would
        compare a page with floors measured under another load."""
        from catalog.models import Source

        client = Client()
        with_floors = connection.vendor == "postgresql"
        self.stdout.write(
            f"\n{Source.objects.count():,} sources on {connection.vendor}; "
            f"{sum(map(len, QUERIES.values()))} queries x {runs} runs; times in ms (server side: "
            "Django test client, no page cache)\n"
        )
        classes = {
            name: [self.time_query(client, query, runs, with_floors) for query in queries]
            for name, queries in QUERIES.items()
        }
        self.print_pages(classes)
        if with_floors:
            self.print_floors(classes)
            self.print_targets(classes)

    def time_query(self, client: Client, query: str, runs: int, with_floors: bool) -> QueryTimes:
        url = "/sources/?" + (query if "=" in query else f"q={quote(query)}")
        statements: list[Statement] = []

        def record(
            execute: Callable[..., Any],
            sql: str,
            params: Sequence[Any],
            many: bool,
            context: dict[str, Any],
        ) -> Any:
            # The page's reads; its own writes (a catalog gap it records) would collide if
            # replayed, and what they cost is not search's.
            if sql.lstrip().upper().startswith(("SELECT", "WITH")):
                statements.append((sql, params))
            return execute(sql, params, many, context)

        with connection.execute_wrapper(record):
            response = client.get(url)  # warm-up, and the statements it runs
        if response.status_code != 200:
            raise CommandError(f"{url} answered {response.status_code}")
        floors = floor_statements(query) if with_floors else {}
        times = QueryTimes(query, len(statements))
        for _ in range(runs):
            started = time.perf_counter()
            client.get(url)
            times.view.append(elapsed_ms(started))
            times.sql.append(replay(statements))
            for name, statement in floors.items():
                getattr(times, name).append(replay([statement]))
        if self.verbosity >= 2:
            self.stdout.write(
                f"  {query[:40]:<40} {times.p50('view'):7.1f} {times.p50('sql'):8.1f} "
                f"{len(statements):>4}"
            )
        return times

    def print_pages(self, classes: dict[str, list[QueryTimes]]) -> None:
        header = (
            f"{'class':<12} {'p50':>7} {'p95':>7} {'max':>7} {'SQL p50':>8} {'ratio':>6} "
            f"{'queries':>8}"
        )
        self.stdout.write(header + "\n" + "-" * len(header))
        every = QueryTimes("all", 0)
        for name, queries in classes.items():
            pooled = pool(queries)
            every.extend(pooled)
            counts = [q.statements for q in queries]
            self.stdout.write(
                f"{name:<12} {pooled.p50('view'):7.1f} {pooled.p('view', 95):7.1f} "
                f"{max(pooled.view):7.1f} {pooled.p50('sql'):8.1f} {median_ratio(queries):6.2f} "
                f"{min(counts):>4}-{max(counts):<3}"
            )
        self.stdout.write("-" * len(header))
        self.stdout.write(
            f"{'all':<12} {every.p50('view'):7.1f} {every.p('view', 95):7.1f} "
            f"{max(every.view):7.1f} {every.p50('sql'):8.1f} "
            f"{every.p50('view') / every.p50('sql'):6.2f}"
        )
        self.stdout.write(
            "\nSQL = the same statements the view ran, replayed on a bare cursor; "
            "ratio = view time / SQL time (median per query, then median per class)."
        )

    def print_floors(self, classes: dict[str, list[QueryTimes]]) -> None:
        self.stdout.write(
            "\nFloors, SQL in ms: rank = the first page's ids in the page's order alone (no "
            "facets, no cards); read = every match's facet columns read once, nothing grouped"
        )
        self.stdout.write(f"{'class':<12} {'rank p50':>9} {'p95':>7} {'read p50':>9} {'p95':>7}")
        every = QueryTimes("all", 0)
        for name, queries in classes.items():
            pooled = pool(queries)
            every.extend(pooled)
            self.stdout.write(
                f"{name:<12} {pooled.p50('rank'):9.1f} {pooled.p('rank', 95):7.1f} "
                f"{pooled.p50('read'):9.1f} {pooled.p('read', 95):7.1f}"
            )
        self.stdout.write(
            f"{'all':<12} {'':>9} {'':>7} {every.p50('read'):9.1f} {every.p('read', 95):7.1f}"
        )

    def print_targets(self, classes: dict[str, list[QueryTimes]]) -> None:
        """Each class's p50 against 1.5x its floors (rank + read), and the rare-word page
        against 1.5x its own SQL: the budgets the search page is held to."""
        self.stdout.write(
            f"\nTargets: p50 <= {FLOOR_BUDGET}x (rank + read floors); rare-word page <= "
            f"{FLOOR_BUDGET}x its SQL"
        )
        self.stdout.write(
            f"{'class':<12} {'p50':>7} {'floors':>7} {'p50/floors':>11} {'view/SQL':>9} {'':>5}"
        )
        for name, queries in classes.items():
            pooled = pool(queries)
            floors = pooled.p50("rank") + pooled.p50("read")
            ratio, sql_ratio = pooled.p50("view") / floors, median_ratio(queries)
            met = ratio <= FLOOR_BUDGET and (name != "rare" or sql_ratio <= FLOOR_BUDGET)
            self.stdout.write(
                f"{name:<12} {pooled.p50('view'):7.1f} {floors:7.1f} {ratio:11.2f} "
                f"{sql_ratio:9.2f} {'ok' if met else 'over':>5}"
            )
        if "described" in classes and "common" in classes:
            described, common = pool(classes["described"]), pool(classes["common"])
            ratio = described.p50("view") / common.p50("view")
            self.stdout.write(
                f"described / common-word p50: {described.p50('view'):.1f} / "
                f"{common.p50('view'):.1f} ms = {ratio:.2f} (target <= {DESCRIBED_BUDGET}) "
                f"{'ok' if ratio <= DESCRIBED_BUDGET else 'over'}"
            )


def elapsed_ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000


def replay(statements: list[Statement]) -> float:
    started = time.perf_counter()
    with connection.cursor() as cursor:
        for sql, params in statements:
            cursor.execute(sql, params)
            cursor.fetchall()
    return elapsed_ms(started)


def floor_statements(text: str) -> dict[str, Statement]:
    """Two floors no facet strategy can beat, as SQL compiled once (only the database is timed).

    rank: the first page by the page's own ranking over the same matches, with no counts: what
    remains if facets were free. read: every match's facet columns (tier, kind, year, topic and
    list set keys) read once and barely summed: what any exact count must at least do.
    """
    from django.http import QueryDict

    from search.forms import SearchForm
    from search.match import match
    from search.parsing import chosen_sort
    from search.rank import rank
    from search.set_keys import KEYED_SETS

    form = SearchForm(QueryDict(text if "=" in text else f"q={quote(text)}"))
    form.is_valid()
    params = form.params()
    matched = match(params, "default")
    matches = matched.rows
    columns = matches.order_by().values_list("tier_id", "kind", "year", *KEYED_SETS)
    inner, inner_params = columns.query.sql_with_params()
    read = (
        "SELECT count(*), sum(m.tier_id), max(m.kind), sum(m.year), "
        f"sum(length(m.topic_key)), sum(length(m.list_key)) FROM ({inner}) m",
        inner_params,
    )
    page = rank(matched, chosen_sort(params)).ids[: settings.CATALOG_PAGE_SIZE]
    return {"rank": page.query.sql_with_params(), "read": read}


def pending_migrations() -> bool:
    executor = MigrationExecutor(connection)
    return bool(executor.migration_plan(executor.loader.graph.leaf_nodes()))


def compact() -> None:
    """Rewrite the tables a migration may have rebuilt row by row (the search document's does):
    a search-entry table left at twice its size outgrows PostgreSQL's shared buffers, and every
    figure, the floors included, then rises by half."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("VACUUM FULL ANALYZE catalog_search_entry")
            cursor.execute("VACUUM FULL ANALYZE catalog_source")
        else:
            cursor.execute("VACUUM")
