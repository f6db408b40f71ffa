"""bench_search end to end, at a size that runs in seconds, in a database of its own."""

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from subprocess import CompletedProcess

import pytest
from django.db import connection

from readinglist.local_server import BASE_DIR

from .smoke import drop_smoke_database, smoke_database_name

# Real processes and whole databases: minutes, so `make test-fast` leaves them out.
pytestmark = pytest.mark.slow

SMOKE_DB = smoke_database_name("search")
CLASSES = ("common", "rare", "multi-word", "typo", "described", "with facets", "all")


@pytest.fixture
def smoke_database() -> Iterator[None]:
    drop_smoke_database(SMOKE_DB)
    yield
    drop_smoke_database(SMOKE_DB)


def bench(*args: str, database: str) -> CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", "bench_search", "--runs=1", "--relevance=skip", *args],
        cwd=BASE_DIR,
        env=os.environ | {"READINGLIST_BENCH_DB": database, "DEBUG": "true"},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_the_benchmark_prints_its_table(smoke_database: None) -> None:
    result = bench("--sources=300", database=SMOKE_DB)
    assert result.returncode == 0, result.stderr[-3000:]
    out = result.stdout
    assert f"300 sources on {connection.vendor}; 60 queries x 1 runs" in out
    table, _, floors = out.partition("\nFloors")
    rows = table_rows(table)
    for name in CLASSES:
        assert name in rows, out
    # p50, p95, max, SQL p50 and ratio are numbers; the web layer costs something.
    figures = [float(x) for x in rows["all"][1:6]]
    assert all(value > 0 for value in figures)
    floors, _, targets = floors.partition("\nTargets")
    if connection.vendor == "postgresql":
        assert "rank = the first page's ids in the page's order alone" in floors
        floor_rows = table_rows(floors)
        assert float(floor_rows["common"][1]) > 0  # rank p50
        assert float(floor_rows["with facets"][2]) > 0  # filtered pages in their own order
        assert float(floor_rows["all"][1]) > 0  # read p50, over all 60 queries
        # Each class against 1.5x its floors, the rare-word page against 1.5x its SQL.
        assert "p50 <= 1.5x (rank + read floors); rare-word page <= 1.5x its SQL" in targets
        target_rows = table_rows(targets)
        for name in CLASSES[:-1]:  # every class but "all"
            words = len(name.split())  # "with facets" is two
            p50, floor, ratio, sql_ratio, verdict = target_rows[name][words : words + 5]
            assert float(ratio) == pytest.approx(float(p50) / float(floor), rel=0.1)
            assert float(sql_ratio) > 0 and verdict in {"ok", "over"}
        # A described query against a common word's page, the target the issue sets.
        assert re.search(r"described / common-word p50: [\d.]+ / [\d.]+ ms = [\d.]+", targets)
    else:
        assert not floors and not targets
    assert "refusing" not in out


def table_rows(text: str) -> dict[str, list[str]]:
    """{class name: the row's words}, for a table whose first column is the class."""
    return {line.split("  ")[0].strip(): line.split() for line in text.splitlines() if line}


def test_the_benchmark_database_must_be_named_as_one() -> None:
    result = bench(database="readinglist")
    assert result.returncode != 0
    assert "READINGLIST_BENCH_DB must start with 'readinglist_bench'" in result.stderr


def test_the_synthetic_vocabulary_is_as_large_as_the_shipped_catalogs() -> None:
    """The benchmark draws its words from the shipped catalog's own, so its vocabulary (and
    what the corrections statement knows of a query's words) is as large as the real one."""
    from bench.search_catalog import DOMAIN, catalog_words

    words = catalog_words()
    assert words[: len(DOMAIN)] == DOMAIN  # the queries' words keep their frequencies
    assert len(set(words)) == len(words) > 3785
    assert "gpus" in words and "starvation" in words
    assert catalog_words() == words  # the same on every build
