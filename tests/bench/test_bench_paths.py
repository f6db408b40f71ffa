"""bench_paths end to end: the judged figures beside their floors, and the times."""

import os
import subprocess
import sys
from collections.abc import Iterator

import pytest

from readinglist.local_server import BASE_DIR

from .smoke import drop_smoke_database, smoke_database_name

# Every judged goal drafted, and the shipped catalog loaded into a database of its own: a
# minute or two, so `make test-fast` leaves it out.
pytestmark = pytest.mark.slow

SMOKE_DB = smoke_database_name("paths")


@pytest.fixture
def smoke_database() -> Iterator[None]:
    drop_smoke_database(f"{SMOKE_DB}_paths")
    yield
    drop_smoke_database(f"{SMOKE_DB}_paths")


def test_the_benchmark_prints_each_set_beside_its_floors_and_the_times(
    smoke_database: None,
) -> None:
    result = subprocess.run(
        [sys.executable, "manage.py", "bench_paths", "--runs=1"],
        cwd=BASE_DIR,
        env=os.environ | {"READINGLIST_BENCH_DB": SMOKE_DB, "DEBUG": "true"},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )

    assert result.returncode == 0, result.stderr[-3000:]
    rows = {line.split()[0]: line.split() for line in result.stdout.splitlines() if line}
    judged = rows["judged"]
    assert judged[1] == "20"
    assert float(judged[2]) >= 0.8 and judged[3] == "(0.80)"
    assert float(judged[6]) == 1.0  # every judged ordering pair kept
    assert rows["held-out"][1] == rows["fresh"][1] == "10"
    assert " !" not in result.stdout  # no figure below its floor
    assert "Draft time: first after the catalog loaded" in result.stdout
    assert "Markdown import: " in result.stdout and "1,000 links" in result.stdout
    assert "with 1 follower" in result.stdout or "Path page: not built" in result.stdout
