"""bench_foryou end to end, at a size that runs in seconds, in a database of its own."""

import os
import re
import subprocess
import sys
from collections.abc import Iterator

import pytest

from readinglist.local_server import BASE_DIR

from .smoke import drop_smoke_database, smoke_database_name

# Real processes and whole databases: minutes, so `make test-fast` leaves them out.
pytestmark = pytest.mark.slow

SMOKE_DB = smoke_database_name("foryou")


@pytest.fixture
def smoke_database(db: None) -> Iterator[None]:
    drop_smoke_database(SMOKE_DB)
    yield
    drop_smoke_database(SMOKE_DB)


def test_the_benchmark_prints_for_you_beside_its_target(smoke_database: None) -> None:
    result = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "bench_foryou",
            "--sources=300",
            "--bookmarks=20",
            "--runs=2",
        ],
        cwd=BASE_DIR,
        env=os.environ | {"READINGLIST_BENCH_DB": SMOKE_DB, "DEBUG": "true"},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    found = re.search(
        r"For you, 300 sources, 20 bookmarks: p50 ([\d.]+) ms, p95 [\d.]+ ms \(target 30 ms: ",
        result.stdout,
    )
    assert found, result.stdout
    assert float(found[1]) > 0
    assert re.search(r"related sources: [\d,]+ rows for the whole catalog in", result.stdout)
    assert "LinearSVC (fit + score)" in result.stdout
