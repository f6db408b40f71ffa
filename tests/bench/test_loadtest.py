import io
import os
import subprocess
import sys
import time

import psutil
import pytest
from django.test import Client

from bench.loadtest.cpu import machine_cpu_seconds, server_cpu_seconds, services_cpu_seconds
from bench.loadtest.scenarios import ANONYMOUS, PROBE, SIGNED_IN, TRIVIAL, PlannedScenario, resolve
from bench.management.commands import loadtest
from tests.hints import SmallCatalog


@pytest.fixture
def plan(small_catalog: SmallCatalog) -> list[PlannedScenario]:
    plan, skipped = resolve(samples=3)
    assert skipped == []
    return plan


def test_the_reference_is_a_trivial_view_through_the_whole_stack(
    plan: list[PlannedScenario],
) -> None:
    by_audience: dict[str, list[list[str]]] = {}
    for scenario in plan:
        by_audience.setdefault(scenario["audience"], []).append(scenario["paths"])
    assert by_audience[TRIVIAL] == [["/robots.txt"]]
    assert by_audience[PROBE] == [["/healthz"]]


def test_every_anonymous_page_in_the_plan_is_served(
    plan: list[PlannedScenario], client: Client
) -> None:
    for scenario in plan:
        if scenario["audience"] not in (TRIVIAL, PROBE, ANONYMOUS):
            continue
        for path in scenario["paths"][:3]:
            response = client.get(path)
            assert response.status_code == 200, (scenario["name"], path)


def _report(capacity: dict[str, object]) -> dict[str, list[str]]:
    plan = [
        {"name": "trivial", "audience": TRIVIAL, "method": "GET", "target": None},
        {"name": "probe", "audience": PROBE, "method": "GET", "target": None},
        {"name": "home", "audience": ANONYMOUS, "method": "GET", "target": 0.5},
        {"name": "library", "audience": SIGNED_IN, "method": "GET", "target": 0.5},
        {"name": "toggle", "audience": SIGNED_IN, "method": "POST", "target": 0.3},
        {"name": "note", "audience": SIGNED_IN, "method": "POST", "target": 0.2},
    ]
    mix = {"seconds": 60, "rows": {}, "errors": []}
    options = {
        "workers": 3,
        "threads": 1,
        "cache_label": "local",
        "probe_users": 12,
        "probe_seconds": 8,
        "probe_rounds": 4,
        "users": 50,
        "think": 1.0,
    }
    out = io.StringIO()
    command = loadtest.Command(stdout=out)
    # The report reads only these keys of each scenario.
    command._report(plan, {"capacity": capacity, "mix": mix}, options)  # type: ignore[arg-type]
    return {line.split()[0]: line.split()[1:] for line in out.getvalue().splitlines() if line}


def test_report_judges_pages_against_the_trivial_view_not_the_probe() -> None:
    rows = _report(
        {
            "trivial": {"rps": 1000.0},
            "probe": {"rps": 2000.0},
            "home": {"rps": 600.0},
            "library": {"rps": 450.0},
            "toggle": {"rps": 310.0},
            "note": {"rps": 150.0},
        }
    )
    assert rows["home"][:5] == ["anonymous", "600.0", "0.60", "0.30", "≥50%"]
    assert rows["home"][5] == "✓"
    # Signed-in pages have the same target as anonymous ones: 0.45 misses it.
    assert rows["library"][2:6] == ["0.45", "0.23", "≥50%", "✗"]
    # Writes have targets of their own.
    assert rows["toggle"][2:6] == ["0.31", "0.15", "≥30%", "✓"]
    assert rows["note"][2:6] == ["0.15", "0.07", "≥20%", "✗"]
    assert rows["Below"] == ["the", "throughput", "target:", "library,", "note"]


def test_every_page_and_write_in_the_plan_has_the_issues_target(
    plan: list[PlannedScenario],
) -> None:
    targets = {scenario["name"]: scenario["target"] for scenario in plan}
    assert targets.pop("trivial view (/robots.txt)") is None
    assert targets.pop("probe (/healthz)") is None
    assert targets.pop("bookmark toggle (POST)") == 0.3
    assert targets.pop("add a note (POST)") == 0.2
    assert set(targets.values()) == {0.5}


def test_report_shows_cpu_per_request_where_it_was_read() -> None:
    rows = _report(
        {
            "trivial": {"rps": 1000.0, "cpu_ms": 0.9, "db_cpu_ms": 0.0, "machine_cpu_ms": 1.1},
            "probe": {"rps": 2000.0, "cpu_ms": None},
            "home": {"rps": 600.0, "cpu_ms": 1.234},
            "library": {"rps": 450.0},
            "toggle": {"rps": 310.0, "cpu_ms": 3.6, "db_cpu_ms": 0.52, "machine_cpu_ms": 4.4},
            "note": {"rps": 150.0, "cpu_ms": 10.0},
        }
    )
    # app, db (PostgreSQL and Redis), all (the machine)
    assert rows["trivial"][-3:] == ["0.90", "0.00", "1.10"]
    assert rows["toggle"][-3:] == ["3.60", "0.52", "4.40"]
    assert rows["home"][-4:] == ["0", "1.23", "-", "-"]
    # Not read (no /proc), or a result from before the columns: a dash, not a zero.
    assert rows["probe"][-3:] == ["-", "-", "-"]
    assert rows["library"][-3:] == ["-", "-", "-"]


def test_the_services_cpu_is_read_from_the_processes_named_and_none_without_one() -> None:
    # This test process stands in for a service: its own name is what is looked for.
    own_name = psutil.Process().name()
    seconds = services_cpu_seconds((own_name,))
    assert seconds is not None and seconds > 0
    assert services_cpu_seconds(("no-such-service-anywhere",)) is None


def test_the_machines_cpu_grows_with_work_done_here() -> None:
    before = machine_cpu_seconds()
    end = time.process_time() + 0.2
    while time.process_time() < end:
        pass
    assert machine_cpu_seconds() - before >= 0.15


def test_server_cpu_is_none_for_a_server_that_is_gone() -> None:
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    assert server_cpu_seconds(gone.pid) is None


def test_server_cpu_grows_with_the_work_of_a_real_child() -> None:
    spin = (
        "import time\n"
        "end = time.process_time() + 0.3\n"
        "while time.process_time() < end: pass\n"
        "print('spun', flush=True)\n"
        "time.sleep(30)\n"
    )
    before = server_cpu_seconds(os.getpid())
    child = subprocess.Popen([sys.executable, "-c", spin], stdout=subprocess.PIPE, text=True)
    try:
        # Read once the child has spent its CPU, however slowly a loaded machine runs it.
        assert child.stdout is not None and child.stdout.readline() == "spun\n"
        after = server_cpu_seconds(os.getpid())
    finally:
        child.kill()
        child.wait()
    assert before is not None and after is not None
    assert after - before >= 0.25
