"""Time the bookmark click beside its floor: the one-statement upsert it used to be.

The click writes through the model (`library.services.set_status`); the floor is the same click
with `set_status` replaced by the hand-written `INSERT … ON CONFLICT … RETURNING` it replaced,
which repeated the date rules in SQL and sent no signal (it bumps the page versions itself, as
it did). A third variant sends a first save without the control's word that the source is not
saved yet (`unsaved`), so the write reads before it inserts, as the click did before the control
said so and as the list pages' shared form still does. All run through Django's test client as
the htmx control posts them, with production settings, on the shipped catalog loaded into a
database of its own (`readinglist_bench_bookmark` on the server DATABASE_URL names, a temporary
file on SQLite).

Each round takes the variants in a rotated order; a variant's turn saves `--clicks` sources the
reader did not have (a first save), then changes each one's status (a status change), then
removes them untimed. A figure is the median over rounds of each turn's median, and a ratio the
median over rounds of the paired per-round ratios to the floor, so a drift of the machine's
speed falls on every variant alike. The statements of one click of each kind are counted too.
"""

import logging
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from functools import partial
from typing import Any
from unittest import mock

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError, CommandParser
from django.db import connection, transaction
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

# Set before bench_search reads it: the catalog goes in a database of its own.
os.environ.setdefault("READINGLIST_BENCH_DB", "readinglist_bench_bookmark")

from bench.management.commands import bench_search

# The click may cost at most this much more than its floor (ratio of medians).
TARGET = 1.10
KINDS = ("first save", "status change")
# The upsert the click used to send: a repeat changes nothing, the dates follow the stored row.
_SAME = '"{table}"."status" = excluded."status"'
FLOOR_UPSERT = """INSERT INTO "{table}"
    ("user_id", "source_id", "status", "saved_at", "started_at", "finished_at", "updated")
VALUES (%s, %s, %s, %s, %s, %s, %s)
ON CONFLICT ("user_id", "source_id") DO UPDATE SET
    "status" = excluded."status",
    "started_at" = CASE WHEN {same} THEN "{table}"."started_at"
        WHEN excluded."started_at" IS NULL THEN NULL
        ELSE COALESCE("{table}"."started_at", excluded."started_at") END,
    "finished_at" = CASE WHEN {same} THEN "{table}"."finished_at"
        ELSE excluded."finished_at" END,
    "updated" = CASE WHEN {same} THEN "{table}"."updated" ELSE excluded."updated" END
RETURNING "id", "user_id", "source_id", "status", "saved_at", "started_at", "finished_at", "updated"
"""


def floor_set_status(*, user: Any, source: Any, status: str, unsaved: bool = False) -> Any:
    """The floor: the click's write as one hand-written upsert, bumping the versions itself
    (it needs no hint that the source is not saved yet)."""
    from library.models import Bookmark
    from readinglist.pagecache import bump_reader_and_team_versions

    now = timezone.now()
    started = None if status == Bookmark.Status.TO_READ else now
    finished = now if status == Bookmark.Status.READ else None
    params = [user.pk, source.pk, status, now, started, finished, now]
    table = Bookmark._meta.db_table
    sql = FLOOR_UPSERT.format(table=table, same=_SAME.format(table=table))
    (bookmark,) = Bookmark.objects.raw(sql, params)
    if bookmark.updated == now:
        transaction.on_commit(partial(bump_reader_and_team_versions, user.pk))
    return bookmark


@contextmanager
def floor() -> Iterator[None]:
    with mock.patch("library.services.set_status", floor_set_status):
        yield


SHIPPED, FLOOR = "model", "floor (raw upsert)"
# Each variant: what it switches, and whether a first save's click says the source is unsaved,
# as the control does (the list pages' shared form does not, and nor did the control before).
VARIANTS: dict[str, tuple[Callable[[], AbstractContextManager[None]], bool]] = {
    SHIPPED: (nullcontext, True),
    "model, read first": (nullcontext, False),
    FLOOR: (floor, True),
}
# (variant, kind): each round's (wall ms, CPU ms) medians
type Times = dict[tuple[str, str], list[tuple[float, float]]]


class Command(bench_search.Command):
    help = "Time the bookmark click (first save, status change) beside its raw-upsert floor."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--rounds", type=int, default=15)
        parser.add_argument("--clicks", type=int, default=40, help="sources saved a turn")

    # The options this command adds, named: BaseCommand.handle takes them as **options only.
    def handle(self, *args: Any, rounds: int, clicks: int, **options: Any) -> None:  # type: ignore[override]
        if os.environ.get(bench_search.CHILD_FLAG) == "1":
            return self.run_clicks(rounds=rounds, clicks=clicks)
        env = bench_search.child_environment(self.bench_database_url())
        command = [sys.executable, "manage.py", "bench_bookmark", f"--rounds={rounds}"]
        command += [f"--clicks={clicks}"]
        result = subprocess.run(command, env=env, cwd=settings.BASE_DIR, check=False)
        if result.returncode:
            raise CommandError(f"the benchmark process failed ({result.returncode})")

    # -- In the subprocess, connected to the benchmark database ----------------------------------

    def run_clicks(self, *, rounds: int, clicks: int) -> None:
        from django.contrib.auth import get_user_model

        from catalog.catalog_file import read_catalog
        from catalog.models import Source
        from catalog.services import load_catalog
        from library.models import Bookmark

        name = str(connection.settings_dict["NAME"])
        if bench_search.BENCH_PREFIX not in name:
            raise CommandError(f"refusing to benchmark against {name!r}")
        logging.getLogger("readinglist.request").setLevel(logging.WARNING)
        call_command("migrate", verbosity=0, interactive=False)
        if not Source.objects.exists():
            load_catalog(read_catalog(), progress=False)
        reader, _ = get_user_model().objects.get_or_create(email="bench-bookmark@example.com")
        Bookmark.objects.filter(user=reader).delete()
        slugs = list(Source.objects.published().order_by("pk").values_list("slug", flat=True))
        if len(slugs) < clicks + 1:
            raise CommandError(f"only {len(slugs)} sources to save")
        client = Client(headers={"HX-Request": "true"})
        client.force_login(reader)
        # Static URLs without a collectstatic manifest.
        storages = settings.STORAGES | {
            "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}
        }
        with override_settings(STORAGES=storages):
            self.warm_up(client, slugs[clicks])
            counts = self.count_statements(client, slugs[clicks])
            times = self.measure_clicks(client, slugs[:clicks], rounds)
        self.print_times(times, counts, rounds, clicks)

    def measure_clicks(self, client: Client, slugs: list[str], rounds: int) -> Times:
        from library.models import Bookmark

        times: Times = {}
        names = list(VARIANTS)
        for number in range(rounds):
            shift = number % len(names)
            for variant in names[shift:] + names[:shift]:
                switch, word = VARIANTS[variant]
                with switch():
                    for kind, turn in zip(KINDS, self.turn(client, slugs, word), strict=True):
                        times.setdefault((variant, kind), []).append(turn)
                Bookmark.objects.filter(source__slug__in=slugs).delete()
            self.stderr.write(f"round {number + 1}/{rounds} done")
        return times

    def click(self, client: Client, slug: str, status: str, unsaved: bool = False) -> None:
        """Press `status` on the control; `unsaved`: the control shows the source not saved."""
        data = {"status": status} | ({"unsaved": "1"} if unsaved else {})
        response = client.post(f"/library/bookmarks/{slug}/", data)
        if response.status_code != 200:
            raise CommandError(f"the click on {slug} answered {response.status_code}")

    def warm_up(self, client: Client, slug: str) -> None:
        """One click of each kind per variant, untimed: imports, templates, remembered fields."""
        for switch, word in VARIANTS.values():
            with switch():
                self.click(client, slug, "to_read", word)
                for status in ("reading", "remove"):
                    self.click(client, slug, status)

    def count_statements(self, client: Client, slug: str) -> dict[tuple[str, str], int]:
        counts = {}
        for name, (switch, word) in VARIANTS.items():
            with switch():
                for kind, status in zip(KINDS, ("to_read", "reading"), strict=True):
                    with CaptureQueriesContext(connection) as queries:
                        self.click(client, slug, status, word and status == "to_read")
                    counts[(name, kind)] = len(queries)
                self.click(client, slug, "remove")
        return counts

    def turn(self, client: Client, slugs: list[str], word: bool) -> list[tuple[float, float]]:
        """Each kind's medians (wall ms, CPU ms) over `slugs`: first saves, then changes."""
        figures = []
        for status in ("to_read", "reading"):
            wall, cpu = [], []
            for slug in slugs:
                start, start_cpu = time.perf_counter(), time.process_time()
                self.click(client, slug, status, word and status == "to_read")
                wall.append((time.perf_counter() - start) * 1000)
                cpu.append((time.process_time() - start_cpu) * 1000)
            figures.append((statistics.median(wall), statistics.median(cpu)))
        return figures

    def print_times(
        self, times: Times, counts: dict[tuple[str, str], int], rounds: int, clicks: int
    ) -> None:
        base = FLOOR
        self.stdout.write(
            f"\n{connection.vendor}, {rounds} rounds of {clicks} clicks of each kind; medians in "
            f"ms (Django test client, htmx); target: the model's click <= {TARGET:.2f}x its floor"
        )
        self.stdout.write(
            f"{'click':<14} {'variant':<19} {'wall':>6} {'CPU':>6} {'statements':>10} "
            f"{'wall ratio':>10} {'CPU ratio':>9}"
        )
        for kind in KINDS:
            for variant in VARIANTS:
                rows = times[(variant, kind)]
                wall = statistics.median(w for w, _ in rows)
                cpu = statistics.median(c for _, c in rows)
                statements = counts[(variant, kind)]
                line = f"{kind:<14} {variant:<19} {wall:6.2f} {cpu:6.2f} {statements:>10}"
                if variant != base:
                    pairs = list(zip(rows, times[(base, kind)], strict=True))
                    wall_ratio = statistics.median(m[0] / f[0] for m, f in pairs)
                    cpu_ratio = statistics.median(m[1] / f[1] for m, f in pairs)
                    line += f" {wall_ratio:10.3f} {cpu_ratio:9.3f}"
                    if variant == SHIPPED:
                        line += " ok" if wall_ratio <= TARGET else " OVER"
                self.stdout.write(line)
