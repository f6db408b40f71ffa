"""Benchmark /sources/ search against a synthetic catalog of 100,000 sources.

The catalog is built in a separate database, never the one in DATABASE_URL: on PostgreSQL a
database named `readinglist_bench` on the same server, on SQLite a file in the temp directory.
The command re-runs itself in a subprocess pointed at that database, so nothing here can write
to the real catalog.
"""

import logging
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from urllib.parse import quote

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction
from django.test import Client, override_settings

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


def word_list(text):
    return text.split()


DOMAIN = word_list("""
attention flash paged kernel tensor core memory bandwidth cache quantization sparsity
mixture experts speculative decoding prefill batching scheduling serving inference training
pipeline parallelism sharding collective allreduce interconnect hopper blackwell ampere warp
thread block shared register occupancy roofline throughput latency gemm matmul softmax
layernorm fusion compiler triton cutlass cuda ptx profiling tokenizer transformer diffusion
vision multimodal retrieval embedding rotary positional context ring sequence tiling
asynchronous copy fp8 fp4 int8 int4 bf16 mixed precision rounding calibration outlier
distillation pruning adapter finetuning reward benchmark evaluation goodput autoscaling
disaggregated cluster datacenter power energy network rdma infiniband topology placement
routing balancing gating dense sparse structured hardware accelerator systolic array vector
coalescing bank conflicts prefetch eviction offloading swapping allocator fragmentation
compression encoding decoder encoder language model large small efficient scalable fast
optimal adaptive dynamic static hierarchical distributed federated streaming online""")
FILLER = word_list("the a of with for and that we show improves reduces by using on in to")
RARE = [
    f"{a}{b}"
    for a in ("zen", "kyo", "vort", "quil", "maro", "tesk", "bryn", "sol", "orv", "lum")
    for b in ("ax", "ion", "etta", "ora", "ix", "und", "eph", "arn", "oss", "yth")
]
FIRST = word_list("Ada Alan Grace Tri Wei Li Yuki Priya Omar Sofia Lars Nina Chen Maria Ivan Aisha")
LAST = word_list("""Dao Chen Smith Kumar Garcia Nakamura Ivanova Okafor Muller Rossi Kim Zhang Patel
Novak Haddad Silva Johansson Tanaka Cohen Moreau""")
KINDS = ["paper"] * 6 + ["article", "documentation", "repository", "book", "specification"]
BASES = ["mechanism-paper", "none", "none", "implementation", "specification"]
TIERS = ["start-here", "core", "core", "frontier", "further-reading", "further-reading"]

# "common" words each match 10-30% of the synthetic sources (the Zipf head matches nearly all of
# them, which no reader types alone); "rare" ones match about 60 sources each.
QUERIES = {
    "common": [
        "experts",
        "speculative",
        "decoding",
        "prefill",
        "batching",
        "scheduling",
        "serving",
        "inference",
        "training",
        "pipeline",
    ],
    "rare": RARE[3:13],
    "multi-word": [
        "speculative decoding latency",
        "pipeline parallelism interconnect",
        "prefill scheduling",
        "tensor core gemm",
        "flash attention hopper",
        "mixture of experts routing",
        "fp8 mixed precision",
        "paged memory allocator",
        '"warp occupancy"',
        "disaggregated prefill -training",
    ],
    "typo": [
        "speculatve",
        "schedulng",
        "infrence",
        "paralelism",
        "throughpt",
        "interconect",
        "batchng",
        "decodng",
        "blackwel",
        RARE[20][:-1] + "x",
    ],
    "with facets": [
        "q=serving&topic=topic-1",
        "q=prefill&tier=core&kind=paper",
        "q=inference&year=2020-2025",
        "q=serving+latency&topic=topic-2&list=bench-list-1",
        "topic=topic-3&sort=newest",
        "tier=frontier&year=2024",
        "q=training&sort=year&page=3",
        "kind=repository&topic=topic-4",
        "q=batching&topic=topic-1&topic=topic-7",
        "list=bench-list-2&page=40",
    ],
}


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

    def add_arguments(self, parser):
        parser.add_argument("--sources", type=int, default=100_000)
        parser.add_argument("--runs", type=int, default=7, help="timed runs of each query")
        parser.add_argument("--rebuild", action="store_true", help="rebuild the synthetic data")

    def handle(self, *args, sources, runs, rebuild, **options):
        self.verbosity = options["verbosity"]
        if os.environ.get(CHILD_FLAG) == "1":
            return self.run_benchmark(sources=sources, runs=runs, rebuild=rebuild)
        env = child_environment(self.bench_database_url())
        command = [sys.executable, "manage.py", "bench_search", f"--sources={sources}"]
        command += [f"--runs={runs}", f"--verbosity={self.verbosity}"]
        command += ["--rebuild"] if rebuild else []
        result = subprocess.run(command, env=env, cwd=settings.BASE_DIR, check=False)
        if result.returncode:
            raise CommandError(f"the benchmark process failed ({result.returncode})")

    def bench_database_url(self):
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

    def create_postgres_database(self, db):
        import psycopg

        params = {
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

    def run_benchmark(self, *, sources, runs, rebuild):
        name = str(connection.settings_dict["NAME"])
        if not name.endswith(BENCH_DB) and not name.endswith(f"{BENCH_DB}.sqlite3"):
            raise CommandError(f"refusing to benchmark against {name!r}")
        logging.getLogger("readinglist.request").setLevel(logging.WARNING)
        call_command("migrate", verbosity=0, interactive=False)
        from catalog.models import Source

        if rebuild or Source.objects.count() != sources:
            self.build(sources)
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

    def build(self, total):
        from catalog.models import ListEntry, ListSection, ReadingList, Source, Tier, Topic
        from catalog.progress import Progress

        rng = random.Random(20261129)
        self.stdout.write(
            f"Building {total:,} synthetic sources in {connection.settings_dict['NAME']}"
        )
        with transaction.atomic():
            ListEntry.objects.all().delete()
            ListSection.objects.all().delete()
            ReadingList.objects.all().delete()
            Source.topics.through.objects.all().delete()
            Source.objects.all().delete()
            Topic.objects.all().delete()
            Tier.objects.all().delete()
        tiers = {
            slug: Tier.objects.create(slug=slug, name=slug.replace("-", " ").title(), position=i)
            for i, slug in enumerate(dict.fromkeys(TIERS))
        }
        parents = [
            Topic.objects.create(slug=f"topic-{i}", name=f"{DOMAIN[i * 7].title()} systems")
            for i in range(6)
        ]
        topics = parents + [
            Topic.objects.create(
                slug=f"topic-{6 + i}",
                name=f"{DOMAIN[40 + i].title()} {DOMAIN[80 + i]}",
                parent=parents[i % 6],
            )
            for i in range(24)
        ]
        sections = []
        for n in range(1, 4):
            reading_list = ReadingList.objects.create(
                slug=f"bench-list-{n}", title=f"Benchmark list {n}", position=n
            )
            sections += [
                ListSection.objects.create(
                    reading_list=reading_list, slug=f"s{s}", title=f"Section {s}", position=s
                )
                for s in range(1, 11)
            ]
        weights = [1 / (rank + 1) for rank in range(len(DOMAIN))]  # Zipf: a few common words

        def words(count):
            return rng.choices(DOMAIN, weights=weights, k=count)

        batch = 2000
        positions = {section.pk: 0 for section in sections}
        with Progress(total, "sources", stream=self.stderr._out) as bar:
            for start in range(0, total, batch):
                rows = []
                for i in range(start, min(start + batch, total)):
                    title = " ".join(words(rng.randint(2, 5))).capitalize()
                    if rng.random() < 0.05:
                        title = f"{rng.choice(RARE).capitalize()}: {title}"
                    summary = " ".join(
                        rng.choice(FILLER) if rng.random() < 0.3 else w
                        for w in words(rng.randint(18, 40))
                    )
                    authors = ", ".join(
                        f"{rng.choice(FIRST)} {rng.choice(LAST)}" for _ in range(rng.randint(1, 4))
                    )
                    rows.append(
                        Source(
                            slug=f"s{i}",
                            title=title,
                            url=f"https://bench.example.org/{i}",
                            kind=rng.choice(KINDS),
                            basis=rng.choice(BASES),
                            authors=authors,
                            venue=rng.choice(["", "NeurIPS", "MLSys", "ISCA", "arXiv", "OSDI"]),
                            year=min(2025, 1995 + int(rng.betavariate(5, 1.5) * 31)),
                            summary=summary.capitalize() + ".",
                            aliases=rng.choice(["", "", "", title.split()[0].upper()[:4]]),
                            tier=tiers[rng.choice(TIERS)],
                        )
                    )
                with transaction.atomic():
                    created = Source.objects.bulk_create(rows)
                    links = [
                        Source.topics.through(source_id=s.pk, topic_id=t.pk)
                        for s in created
                        for t in rng.sample(topics, rng.randint(1, 3))
                    ]
                    Source.topics.through.objects.bulk_create(links)
                    entries = []
                    for s in created:
                        if rng.random() < 0.2:
                            section = rng.choice(sections)
                            positions[section.pk] += 1
                            entries.append(
                                ListEntry(section=section, source=s, position=positions[section.pk])
                            )
                    ListEntry.objects.bulk_create(entries)
                bar.advance(len(rows))
        with connection.cursor() as cursor:
            # Packed as after a restore: adding topics rewrote each search entry once, and
            # half-empty pages would be measured as search cost.
            cursor.execute("VACUUM FULL" if connection.vendor == "postgresql" else "VACUUM")
            cursor.execute("ANALYZE")

    def measure(self, runs):
        from catalog.models import Source

        # -v 2 adds a line per query (view and SQL medians, statements) under its class.

        client = Client()
        total = Source.objects.count()
        self.stdout.write(
            f"\n{total:,} sources on {connection.vendor}; {sum(map(len, QUERIES.values()))} "
            f"queries x {runs} runs; times in ms (server side: Django test client, no page cache)\n"
        )
        header = (
            f"{'class':<12} {'p50':>7} {'p95':>7} {'max':>7} {'SQL p50':>8} {'ratio':>6} "
            f"{'queries':>8}"
        )
        self.stdout.write(header)
        self.stdout.write("-" * len(header))
        every_view, every_sql, classes = [], [], {}
        for name, queries in QUERIES.items():
            view_times, sql_times, ratios, counts = [], [], [], []
            for query in queries:
                url = "/sources/?" + (query if "=" in query else f"q={quote(query)}")
                statements = []

                def record(execute, sql, params, many, context, statements=statements):
                    statements.append((sql, params))
                    return execute(sql, params, many, context)

                with connection.execute_wrapper(record):
                    response = client.get(url)  # warm-up, and the statements it runs
                if response.status_code != 200:
                    raise CommandError(f"{url} answered {response.status_code}")
                counts.append(len(statements))
                views, sqls = [], []
                for _ in range(runs):
                    started = time.perf_counter()
                    client.get(url)
                    views.append((time.perf_counter() - started) * 1000)
                    started = time.perf_counter()
                    with connection.cursor() as cursor:
                        for sql, params in statements:
                            cursor.execute(sql, params)
                            cursor.fetchall()
                    sqls.append((time.perf_counter() - started) * 1000)
                view_times += views
                sql_times += sqls
                ratios.append(statistics.median(views) / statistics.median(sqls))
                if self.verbosity >= 2:
                    self.stdout.write(
                        f"  {query[:40]:<40} {statistics.median(views):7.1f} "
                        f"{statistics.median(sqls):8.1f} {len(statements):>4}"
                    )
            every_view += view_times
            every_sql += sql_times
            classes[name] = (percentile(view_times, 50), statistics.median(ratios))
            self.stdout.write(
                f"{name:<12} {percentile(view_times, 50):7.1f} {percentile(view_times, 95):7.1f} "
                f"{max(view_times):7.1f} {percentile(sql_times, 50):8.1f} "
                f"{statistics.median(ratios):6.2f} {min(counts):>4}-{max(counts):<3}"
            )
        self.stdout.write("-" * len(header))
        self.stdout.write(
            f"{'all':<12} {percentile(every_view, 50):7.1f} {percentile(every_view, 95):7.1f} "
            f"{max(every_view):7.1f} {percentile(every_sql, 50):8.1f} "
            f"{percentile(every_view, 50) / percentile(every_sql, 50):6.2f}"
        )
        self.stdout.write(
            "\nSQL = the same statements the view ran, replayed on a bare cursor; "
            "ratio = view time / SQL time (median per query, then median per class)."
        )
        if connection.vendor == "postgresql":
            self.targets(classes, self.floors(runs))

    def targets(self, classes, floors):
        """Each class's p50 against 1.5x its floors (rank + read), and the rare-word page
        against 1.5x its own SQL: the budgets the search page is held to."""
        self.stdout.write(
            f"\nTargets: p50 <= {FLOOR_BUDGET}x (rank + read floors); rare-word page <= "
            f"{FLOOR_BUDGET}x its SQL"
        )
        header = (
            f"{'class':<12} {'p50':>7} {'floors':>7} {'p50/floors':>11} {'view/SQL':>9} {'':>5}"
        )
        self.stdout.write(header)
        for name, (p50, sql_ratio) in classes.items():
            rank, read = floors[name]
            ratio = p50 / (rank + read)
            verdict = ratio <= FLOOR_BUDGET and (name != "rare" or sql_ratio <= FLOOR_BUDGET)
            self.stdout.write(
                f"{name:<12} {p50:7.1f} {rank + read:7.1f} {ratio:11.2f} {sql_ratio:9.2f} "
                f"{'ok' if verdict else 'over':>5}"
            )

    def floors(self, runs):
        """Two floors no facet strategy can beat, per query class, SQL in ms.

        rank: the first page by the page's own ranking over the same matches, with no counts:
        what remains if facets were free. read: every match's facet columns (tier, kind, year,
        topic and list ids) read once and barely summed: what any exact count must at least do.
        """
        from django.db.models import Count, F, Func, IntegerField, Max, Sum
        from django.http import QueryDict

        from catalog.forms import SearchForm
        from catalog.search import backend_for, parse_query
        from catalog.search.parsing import chosen_sort

        def cardinality(name):
            return Sum(Func(F(name), function="cardinality", output_field=IntegerField()))

        backend = backend_for("default")
        columns = {
            "n": Count("pk"),
            "tiers": Sum("tier_id"),
            "kind": Max("kind"),
            "years": Sum("year"),
            "topics": cardinality("topic_ids"),
            "lists": cardinality("list_ids"),
        }

        def timed(call):
            call()  # warm-up
            times = []
            for _ in range(runs):
                started = time.perf_counter()
                call()
                times.append((time.perf_counter() - started) * 1000)
            return times

        self.stdout.write(
            "\nFloors, SQL in ms: rank = the first page's ids in the page's order alone (no "
            "facets, no cards); read = every match's facet columns read once, nothing grouped"
        )
        self.stdout.write(f"{'class':<12} {'rank p50':>9} {'p95':>7} {'read p50':>9} {'p95':>7}")
        every_read, floors = [], {}
        for name, queries in QUERIES.items():
            ranks, reads = [], []
            for text in queries:
                form = SearchForm(QueryDict(text if "=" in text else f"q={quote(text)}"))
                form.is_valid()
                params = form.params()
                query = backend.prepare(parse_query(params.q), "default")
                matches = backend.matches(params, query, "default")
                reads += timed(lambda matches=matches: matches.order_by().aggregate(**columns))
                # The first page in the page's own order (relevance, list order, newest...).
                page = backend.ordered_ids(matches, chosen_sort(params, query), query)
                page = page[: settings.CATALOG_PAGE_SIZE]
                ranks += timed(lambda page=page: list(page.all()))  # no result cache
            every_read += reads
            floors[name] = (percentile(ranks, 50), percentile(reads, 50))
            self.stdout.write(
                f"{name:<12} {percentile(ranks, 50):9.1f} {percentile(ranks, 95):7.1f} "
                f"{percentile(reads, 50):9.1f} {percentile(reads, 95):7.1f}"
            )
        self.stdout.write(
            f"{'all':<12} {'':>9} {'':>7} {percentile(every_read, 50):9.1f} "
            f"{percentile(every_read, 95):7.1f}"
        )
        return floors


def percentile(values, p):
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))
    return ordered[index]
