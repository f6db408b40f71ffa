"""bench_tricks end to end, one short round, in a database of its own."""

import os
import subprocess
import sys
from collections.abc import Iterator

import pytest

from readinglist.local_server import BASE_DIR

from .smoke import drop_smoke_database, smoke_database_name

# Real processes and whole databases: minutes, so `make test-fast` leaves them out.
pytestmark = pytest.mark.slow

SMOKE_DB = smoke_database_name("tricks")


@pytest.fixture
def smoke_database(db: None) -> Iterator[None]:
    drop_smoke_database(SMOKE_DB)
    yield
    drop_smoke_database(SMOKE_DB)


def test_every_trick_can_be_turned_off_on_a_real_page(smoke_database: None) -> None:
    """Each variant patches code that still exists (a renamed function fails here, not in the
    next person's measurement), and the pages render with it off."""
    pages = "--pages=/sources/,/sources/?q=attention,/library/notes/"
    result = subprocess.run(
        [sys.executable, "manage.py", "bench_tricks", "--rounds=1", "--requests=1", pages],
        cwd=BASE_DIR,
        env=os.environ | {"READINGLIST_BENCH_DB": SMOKE_DB, "DEBUG": "true"},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    rows = [line for line in result.stdout.splitlines() if line.startswith("| `")]
    assert [row.split("|")[1:3] for row in rows] == [
        [" `/sources/` ", " anonymous "],
        [" `/sources/?q=attention` ", " anonymous "],
        [" `/sources/` ", " signed in "],
        [" `/sources/?q=attention` ", " signed in "],
        [" `/library/notes/` ", " signed in "],
    ]
    header = next(line for line in result.stdout.splitlines() if line.startswith("| page"))
    assert "no card cache" in header and "page cache hit" in header
