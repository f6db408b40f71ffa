"""Goal drafts and Markdown imports on the shipped catalog: the judged figures beside their floors,
and how long each takes.

The shipped catalog is loaded into a database of its own, created and dropped here as a test
database is (`readinglist_bench_paths` on PostgreSQL, or READINGLIST_BENCH_DB's name with
`_paths`; in memory on SQLite), never the one DATABASE_URL names. For each set of goals in
tests/paths/goals.toml it prints the share of the drafts' first ten steps that are relevant
(and the lowest goal's), the share of judged ordering pairs kept, and the same two figures for
search's own first twelve results, in its order; then the draft time (the first draft after the
catalog loads, which builds search's latent index, and p50/p95 of the rest), the time to
match a 1,000-link Markdown list, and the path page's p50 with 1 follower and with 5,000
beside the floor of 1.5 times.
"""

import statistics
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import connection

from bench.management.commands.bench_search import BENCH_DB
from bench.path_followers import path_page_followers
from bench.paths_relevance import (
    GOAL_FLOOR,
    JUDGED,
    ORDERING_TARGET,
    RELEVANCE_TARGET,
    SETS,
    UNTUNED_FLOORS,
    Figures,
    draft_slugs,
    evaluate,
    judged_goals,
    percentile,
)

SEARCH_STEPS = 12


def search_slugs(goal: str) -> list[str]:
    """Search's own first results for the goal, in its order: what a draft improves on."""
    from search.page import matching_sources
    from search.parsing import SearchParams, clean_query_text

    text, _ = clean_query_text(goal)
    return [source.slug for source in matching_sources(SearchParams(q=text), limit=SEARCH_STEPS)]


def markdown_list(count: int) -> str:
    """A list of `count` links under headings: every published source's URL, then addresses the
    catalog does not hold."""
    from catalog.models import Source

    urls = [url for url in Source.objects.published().values_list("url", flat=True) if url]
    urls += [f"https://example.org/posts/{n}" for n in range(max(count - len(urls), 0))]
    lines = []
    for index, url in enumerate(urls[:count]):
        if index % 50 == 0:
            lines.append(f"\n## Part {index // 50 + 1}\n")
        lines.append(f"- [Link {index}]({url}) - what it is about.")
    return "\n".join(lines)


class Command(BaseCommand):
    help = "Judge goal drafts on the shipped catalog and time drafts and Markdown imports."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--runs", type=int, default=3, help="timed drafts of each goal")

    def handle(self, *args: Any, runs: int, **options: Any) -> None:
        from catalog.catalog_file import read_catalog
        from catalog.services import load_catalog

        if connection.vendor == "postgresql":
            connection.settings_dict["TEST"]["NAME"] = f"{BENCH_DB}_paths"
        creation = connection.creation
        old_name = creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
        try:
            load_catalog(read_catalog(), progress=False)
            self.report(runs)
        finally:
            creation.destroy_test_db(old_name, verbosity=0)

    def report(self, runs: int) -> None:
        from catalog.models import Source
        from paths.drafting import draft_path
        from paths.importing import match_markdown

        goals = judged_goals()
        started = time.perf_counter()
        draft_path(goals[0].text)
        first = time.perf_counter() - started
        figures = {
            name: evaluate([g for g in goals if g.set == name], draft_slugs) for name in SETS
        }
        baseline = {
            name: evaluate([g for g in goals if g.set == name], search_slugs) for name in SETS
        }
        sources = Source.objects.published().count()
        self.stdout.write(
            f"\nGoal drafts: {len(goals)} judged goals on the shipped catalog ({sources} "
            f"sources), {connection.vendor}; relevance = share of the first ten steps relevant, "
            "ordering = share of judged pairs kept; search = its own first 12, in its order\n"
        )
        self.stdout.write(
            f"{'set':<10}{'goals':>6}{'relevance':>16}{'lowest':>14}{'ordering':>16}"
            f"{'pairs':>7}{'steps':>7}{'search':>16}"
        )
        for name in SETS:
            self.stdout.write(self.line(name, figures[name], baseline[name]))
        times = []
        for _ in range(runs):
            for goal in goals:
                started = time.perf_counter()
                draft_path(goal.text)
                times.append(time.perf_counter() - started)
        self.stdout.write(
            f"\nDraft time: first after the catalog loaded {first * 1000:.0f} ms; then "
            f"{len(times)} drafts ({runs} of each goal): p50 {percentile(times, 0.5) * 1000:.0f} "
            f"ms, p95 {percentile(times, 0.95) * 1000:.0f} ms (target: well under 1 s)"
        )
        text = markdown_list(1000)
        imports = []
        for _ in range(max(runs, 3)):
            started = time.perf_counter()
            result = match_markdown(text)
            imports.append(time.perf_counter() - started)
        self.stdout.write(
            f"Markdown import: {len(text):,} characters, 1,000 links ({len(result.matched)} "
            f"matched): p50 {statistics.median(imports) * 1000:.0f} ms"
        )
        path_page_followers(self.stdout.write, runs=max(runs * 10, 20))
        self.stdout.write("")

    def line(self, name: str, ours: Figures, search: Figures) -> str:
        judged = name == JUDGED
        relevance = with_floor(ours.relevance, RELEVANCE_TARGET if judged else UNTUNED_FLOORS[name])
        lowest = with_floor(ours.lowest.relevance, GOAL_FLOOR if judged else None)
        ordering = with_floor(ours.ordering, ORDERING_TARGET)
        steps = statistics.fmean(len(goal.slugs) for goal in ours.goals)
        return (
            f"{name:<10}{len(ours.goals):>6}{relevance:>16}{lowest:>14}{ordering:>16}"
            f"{ours.pairs_checked:>7}{steps:>7.1f}"
            f"{f'{search.relevance:.3f} / {search.ordering:.3f}':>16}"
        )


def with_floor(value: float, floor: float | None) -> str:
    """The figure, its floor in brackets, and a mark when it is below."""
    if floor is None:
        return f"{value:.3f}"
    return f"{value:.3f} ({floor:.2f}){'' if value >= floor else ' !'}"
