"""Time each of the site's speed tricks on and off, interleaved, on the shipped catalog.

docs/speed.md lists the tricks and quotes this command's figures. The catalog is loaded into a
database of its own (`readinglist_bench_tricks` on the server DATABASE_URL names, a temporary
file on SQLite), never the one in DATABASE_URL: the command re-runs itself in a subprocess
pointed at it, with production settings (DEBUG off, which the card and control caches need).

Every page is requested through Django's test client for an anonymous visitor and for a reader
with saved sources. Each round takes the pages in turn and, for each page, every variant in a
rotated order, `--requests` requests each (after one untimed); a variant's figure is the median
over rounds of its per-round medians, so a drift of the machine's speed falls on every variant
alike. "page cache off" renders every request (a page-cache miss); "page cache hit" keeps the
whole-page cache on and serves repeats from it.
"""

import logging
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError, CommandParser
from django.db import connection
from django.test import Client, override_settings

# Set before bench_search reads it: the catalog goes in a database of its own.
os.environ.setdefault("READINGLIST_BENCH_DB", "readinglist_bench_tricks")

from bench.management.commands import bench_search

SEARCH = "/sources/?q=attention"
type Page = tuple[str, str, Client]  # path, audience, the client that requests it
# (path, audience, variant): each round's (wall ms, CPU ms)
type Times = dict[tuple[str, str, str], list[tuple[float, float]]]
NOTE = """Read this for **section {number}**: the kernel keeps the tile in *shared memory*.

- the [paper](https://example.org/paper-{number}) and its appendix
- `softmax` is rescaled per block, so nothing is written back until the end

> The quote that made it click, with a `code span` and a second sentence.

Next: compare with the roofline numbers in chapter {number}."""


# The template loops the format-string tags replaced, as the templates had them: the search
# page's facet links and year bars (facet_items, year_bars).
FACET_LOOPS = {
    "pages/source_list.html": {
        "{% year_bars chart chart_link %}": '{% for bar in chart.bars %}{% if bar.count %}<a href="'
        '{{ chart_link }}{% if chart_link != "?" %}&amp;{% endif %}year={{ bar.year }}"><rect '
        'class="bar{% if bar.selected %} is-selected{% endif %}" x="{{ bar.x }}" y="{{ bar.y }}" '
        'width="{{ chart.BAR }}" height="{{ bar.height }}"><title>{{ bar.year }}: '
        "{{ bar.count }} source{{ bar.count|pluralize }}</title></rect></a>{% endif %}"
        "{% endfor %}",
    },
    "pages/includes/facet.html": {
        "{% facet_items items %}": "{% for item in items %}\n"
        '      <li><a href="{{ item.href }}"{% if item.selected %} class="is-selected" '
        'aria-current="true"{% endif %}><span class="facet-label">{{ item.label }}</span> '
        '<span class="count">{{ item.count }}</span>{% if item.selected %}<span '
        'class="visually-hidden"> (selected; click to remove)</span>{% endif %}</a></li>\n'
        "    {% endfor %}",
    },
}


@contextmanager
def template_loops(loops: dict[str, dict[str, str]]) -> Iterator[None]:
    """The templates with `loops` in place of the tags that replaced them."""
    folder = Path(tempfile.mkdtemp(prefix="bench-tricks-"))
    try:
        for name, replacements in loops.items():
            text = (Path(settings.BASE_DIR) / "templates" / name).read_text()
            for tag, loop in replacements.items():
                if tag not in text:
                    raise CommandError(f"{name} no longer has {tag}")
                text = text.replace(tag, loop)
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_text(text)
        engine: dict[str, Any] = settings.TEMPLATES[0]
        templates = [engine | {"DIRS": [folder, *engine["DIRS"]]}]
        with override_settings(TEMPLATES=templates):
            yield
    finally:
        shutil.rmtree(folder)


def variants() -> dict[str, Callable[[], AbstractContextManager[None]]]:
    # Each trick is switched off through the public switch its app offers (speed_tricks).
    from library import speed_tricks as library
    from notes import speed_tricks as notes
    from readinglist import speed_tricks as site
    from search import speed_tricks as search

    return {
        "all tricks": nullcontext,
        "no card cache": library.without_card_cache,
        "no control cache": library.without_control_cache,
        "no URL cache": site.without_url_cache,
        "prior compiled per search": search.prior_compiled_per_search,
        "facets in template loops": lambda: template_loops(FACET_LOOPS),
        "card text left unset": search.card_text_left_unset,
        "library read per card": library.library_read_per_card,
        "Markdown per view": notes.markdown_per_view,
    }


class Command(bench_search.Command):
    help = "Time each speed trick on and off (docs/speed.md) on the shipped catalog."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--rounds", type=int, default=7)
        parser.add_argument("--requests", type=int, default=5, help="timed requests a turn")
        parser.add_argument(
            "--variants", default="", help="comma-separated variant names (default: all)"
        )
        parser.add_argument("--pages", default="", help="comma-separated paths (default: all)")

    # The options this command adds, named: BaseCommand.handle takes them as **options only.
    def handle(  # type: ignore[override]
        self, *args: Any, rounds: int, requests: int, variants: str, pages: str, **options: Any
    ) -> None:
        if os.environ.get(bench_search.CHILD_FLAG) == "1":
            names = [name for name in variants.split(",") if name]
            paths = [path for path in pages.split(",") if path]
            return self.run_tricks(rounds=rounds, requests=requests, names=names, paths=paths)
        env = bench_search.child_environment(self.bench_database_url())
        command = [sys.executable, "manage.py", "bench_tricks", f"--rounds={rounds}"]
        command += [f"--requests={requests}", f"--variants={variants}", f"--pages={pages}"]
        result = subprocess.run(command, env=env, cwd=settings.BASE_DIR, check=False)
        if result.returncode:
            raise CommandError(f"the benchmark process failed ({result.returncode})")

    # -- In the subprocess, connected to the benchmark database ----------------------------------

    def run_tricks(self, *, rounds: int, requests: int, names: list[str], paths: list[str]) -> None:
        name = str(connection.settings_dict["NAME"])
        if bench_search.BENCH_PREFIX not in name:
            raise CommandError(f"refusing to benchmark against {name!r}")
        logging.getLogger("readinglist.request").setLevel(logging.WARNING)
        call_command("migrate", verbosity=0, interactive=False)
        pages = [page for page in self.prepare() if not paths or page[0] in paths]
        storages = settings.STORAGES | {
            "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}
        }
        with override_settings(STORAGES=storages):
            times = self.measure_variants(pages, rounds, requests, names)
        self.print_variants(times, rounds, requests)

    def prepare(self) -> list[Page]:
        from django.contrib.auth import get_user_model

        from catalog.catalog_file import read_catalog
        from catalog.models import ReadingList, Source, Topic
        from catalog.services import load_catalog
        from library.models import Bookmark

        if not Source.objects.exists():
            load_catalog(read_catalog(), progress=False)
        reader, _ = get_user_model().objects.get_or_create(email="bench-tricks@example.com")
        statuses = ["read", "reading", "to_read"]
        for i, saved in enumerate(list(Source.objects.order_by("pk"))[::9][:25]):
            Bookmark.objects.get_or_create(
                user=reader, source=saved, defaults={"status": statuses[i % 3]}
            )
        self.write_notes(reader, Source.objects.order_by("pk")[:20])
        signed_in = Client()
        signed_in.force_login(reader)
        source = Source.objects.order_by("pk").first()
        topic = Topic.objects.order_by("pk").first()
        assert source and topic
        paths = ["/", "/sources/", SEARCH, f"/sources/{source.slug}/", f"/topics/{topic.slug}/"]
        pages = [(path, "anonymous", Client()) for path in paths]
        reading_list = ReadingList.objects.order_by("pk").first()
        assert reading_list
        # A reading list's page: a compact bookmark control per entry for a reader.
        mine = [f"/lists/{reading_list.slug}/", "/library/", "/library/notes/"]
        pages += [(path, "signed in", signed_in) for path in [*paths, *mine]]
        return pages

    def write_notes(self, reader: Any, sources: Iterable[Any]) -> None:
        """A note on each of `sources`, a few paragraphs of Markdown as readers write them."""
        from notes.models import Note

        if Note.objects.filter(user=reader).exists():
            return
        for number, source in enumerate(sources):
            Note.objects.create(user=reader, source=source, body=NOTE.format(number=number))

    def measure_variants(
        self, pages: list[Page], rounds: int, requests: int, chosen: list[str]
    ) -> Times:
        tricks = variants()
        unknown = set(chosen) - {*tricks, "page cache hit"}
        if unknown:
            raise CommandError(f"no such variant: {', '.join(sorted(unknown))}")
        names = ["all tricks", *(name for name in [*tricks, "page cache hit"] if name in chosen)]
        names = names if chosen else [*tricks, "page cache hit"]
        times: Times = {}
        for round_number in range(rounds):
            for path, audience, client in pages:
                shift = round_number % len(names)
                for name in names[shift:] + names[:shift]:
                    cache = name == "page cache hit"
                    trick = nullcontext() if cache else tricks[name]()
                    with trick, override_settings(CATALOG_PAGE_CACHE=cache):
                        turn = self.turn(client, path, requests)
                    times.setdefault((path, audience, name), []).append(turn)
            self.stderr.write(f"round {round_number + 1}/{rounds} done")
        return times

    def turn(self, client: Client, path: str, requests: int) -> tuple[float, float]:
        """The medians of `requests` timed requests (wall clock, this process's CPU), after one
        untimed request that fills the caches."""
        response = client.get(path)
        if response.status_code != 200:
            raise CommandError(f"{path} answered {response.status_code}")
        wall, cpu = [], []
        for _ in range(requests):
            start, start_cpu = time.perf_counter(), time.process_time()
            client.get(path)
            wall.append((time.perf_counter() - start) * 1000)
            cpu.append((time.process_time() - start_cpu) * 1000)
        return statistics.median(wall), statistics.median(cpu)

    def print_variants(self, times: Times, rounds: int, requests: int) -> None:
        """Per page: the page with every trick, wall clock and CPU; then, per variant, the median
        over rounds of its CPU time minus the same round's with every trick (paired, so a drift
        of the machine between rounds cancels out), in ms and as a share of the page's CPU."""
        names = list(dict.fromkeys(name for _, _, name in times))[1:]
        self.stdout.write(
            f"\n{connection.vendor}, {rounds} rounds of {requests} requests. Each variant's "
            "column: the CPU ms the page gains without that trick (paired medians)\n"
        )
        self.stdout.write("| page | audience | wall ms | CPU ms | " + " | ".join(names) + " |")
        self.stdout.write("|---|---|---:|---:|" + "---:|" * len(names))
        for path, audience in dict.fromkeys((p, a) for p, a, _ in times):
            base = times[(path, audience, "all tricks")]
            base_wall = statistics.median(wall for wall, _ in base)
            base_cpu = statistics.median(cpu for _, cpu in base)
            cells = []
            for name in names:
                pairs = zip(times[(path, audience, name)], base, strict=True)
                gain = statistics.median(cpu - cpu_base for (_, cpu), (_, cpu_base) in pairs)
                cells.append(f"{gain:+.2f} ({100 * gain / base_cpu:+.0f}%)")
            self.stdout.write(
                f"| `{path}` | {audience} | {base_wall:.1f} | {base_cpu:.1f} | "
                + " | ".join(cells)
                + " |"
            )
