"""bench_foryou end to end, at a size that runs in seconds, in a database of its own."""

import os
import re
import subprocess
import sys
import tempfile

import psycopg
import pytest
from django.conf import settings
from django.db import connection

from readinglist.local_server import BASE_DIR

# One name per process: parallel workers and other checkouts on the machine never share it.
SMOKE_DB = f"readinglist_bench_foryou_smoke_{os.getpid()}"


def _drop_smoke_database() -> None:
    if connection.vendor == "postgresql":
        database = settings.DATABASES["default"]
        params = {"host": database["HOST"], "port": database["PORT"], "user": database["USER"]}
        params |= {"password": database["PASSWORD"]} if database.get("PASSWORD") else {}
        with psycopg.connect(dbname="postgres", autocommit=True, **params) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{SMOKE_DB}" WITH (FORCE)')
    else:
        path = os.path.join(tempfile.gettempdir(), f"{SMOKE_DB}.sqlite3")
        if os.path.exists(path):
            os.remove(path)


@pytest.fixture
def smoke_database(db):
    _drop_smoke_database()
    yield
    _drop_smoke_database()


def test_the_benchmark_prints_for_you_beside_its_target(smoke_database):
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
