"""The locust side of `manage.py loadtest`, run in its own process (locust patches the standard
library with gevent, which the Django process must not be).

    python -m bench.loadtest.runner CONFIG.json RESULT.json

CONFIG holds the server URL, the resolved plan (bench/loadtest/scenarios.py), the signed-in
sessions, and the phase lengths. Two phases run against the same server:
  1. capacity (after a warm-up: every page once anonymously, and each signed-in page once per
     test account): each scenario alone, `probe_users` users with no think time (enough to keep
     every worker busy), for `probe_seconds` in all; its requests per second are the throughput
     compared with the trivial view's. The time is split into `probe_rounds` rounds, each
     visiting every page in turn, so a change in the machine's other load during the run (the
     machine is shared) weighs on every page and on the trivial view alike; the writes (POSTs)
     get their rounds after the pages';
  2. mix: `users` users (a share signed in) replaying the weighted mix with think time, for
     `seconds`; its latency percentiles and error count are what a team would feel.
"""

import contextlib
import json
import random
import sys
import time
import urllib.request
from collections.abc import Callable
from typing import Any

import gevent
import gevent.pool
from locust import FastHttpUser, User, between, constant, task
from locust.contrib.fasthttp import ResponseContextManager
from locust.env import Environment

from bench.loadtest.cpu import machine_cpu_seconds, server_cpu_seconds, services_cpu_seconds

PERCENTILES = (0.5, 0.95, 0.99)
# The config file is JSON the Django side wrote: a PlannedScenario of
# bench/loadtest/scenarios.py, and a signed-in reader's cookies and CSRF token.
Planned = dict[str, Any]
Session = dict[str, Any]
WaitTime = Callable[[User], float]
# Whose CPU a probe reads: the server under test, PostgreSQL and Redis, the whole machine.
CPU_PARTS = ("app", "db", "all")
CpuReading = dict[str, float | None]


def _cpu_reading(server_pid: int | None) -> CpuReading:
    return {
        "app": server_cpu_seconds(server_pid) if server_pid else None,
        "db": services_cpu_seconds(),
        "all": machine_cpu_seconds(),
    }


def _cpu_spent(before: CpuReading, after: CpuReading) -> CpuReading:
    spent: CpuReading = {}
    for part in CPU_PARTS:
        start, end = before[part], after[part]
        spent[part] = None if start is None or end is None else end - start
    return spent


def _user_class(
    name: str, scenarios: list[Planned], sessions: list[Session], host: str, wait_time: WaitTime
) -> type[FastHttpUser]:
    """A locust user replaying `scenarios` by weight, signed in when `sessions` is given."""
    choices = [s for s in scenarios for _ in range(s["weight"])]

    class Reader(FastHttpUser):
        abstract = False

        def on_start(self) -> None:
            # Cookies by hand: production cookies are Secure and this is plain HTTP on loopback,
            # so a cookie jar would drop them. Anonymous readers send none, as on a first visit.
            self.client.client.cookiejar = None
            self.session = random.choice(sessions) if sessions else None
            self.cookie = (
                "; ".join(f"{k}={v}" for k, v in self.session["cookies"].items())
                if self.session
                else None
            )

        @task
        def visit(self) -> None:
            scenario = random.choice(choices)
            path = random.choice(scenario["paths"])
            headers = {"HX-Request": "true"} if scenario["htmx"] else {}
            if self.cookie:
                headers["Cookie"] = self.cookie
            form: dict[str, Any] = {}
            send = self.client.get
            if scenario["method"] == "POST":
                headers["X-CSRFToken"] = self.session["csrf"] if self.session else ""
                data = {key: random.choice(values) for key, values in scenario["data"].items()}
                send, form = self.client.post, {"data": data}
            with send(
                path,
                headers=headers,
                name=scenario["name"],
                catch_response=True,
                allow_redirects=False,
                **form,
            ) as response:
                _judge(response)

    Reader.__name__ = name
    Reader.host = host
    Reader.wait_time = wait_time
    Reader.weight = 1
    return Reader


def _judge(response: ResponseContextManager) -> None:
    # No headers means no answer at all (the connection failed or was dropped): an error,
    # counted as one rather than raised out of the task uncounted.
    if response.headers is None:
        response.failure("no response")
    # A redirect to the login page means the session was lost: that is an error here.
    elif response.status_code >= 400 or "/accounts/login/" in (
        response.headers.get("Location") or ""
    ):
        response.failure(f"HTTP {response.status_code}")
    else:
        response.success()


def _run(
    user_classes: list[type[User]],
    users: int,
    seconds: float,
    *,
    after_spawn: bool = False,
    server_pid: int | None = None,
) -> dict[str, Any]:
    """Run the users for `seconds`; with `after_spawn`, only once all are running (a probe
    measures the steady state, not the ramp-up). The CPU seconds spent meanwhile are returned
    too: by the server at `server_pid`, by PostgreSQL and Redis, by the machine (None where
    /proc cannot tell)."""
    env = Environment(user_classes=user_classes)
    runner = env.create_local_runner()
    # All users within a second for the mix; as fast as locust advises (100 a second) for a
    # probe, whose clock starts once they all run.
    runner.start(users, spawn_rate=max(users, 100) if after_spawn else users)
    if after_spawn:
        # start() has just spawned it; it ends once every user runs.
        assert runner.spawning_greenlet is not None
        runner.spawning_greenlet.join()
        env.stats.reset_all()
    cpu_before = _cpu_reading(server_pid)
    started = time.monotonic()
    gevent.sleep(seconds)
    runner.quit()
    elapsed = time.monotonic() - started
    cpu = _cpu_spent(cpu_before, _cpu_reading(server_pid))
    rows: dict[str, dict[str, float]] = {}
    for (name, _method), entry in env.stats.entries.items():
        rows[name] = {
            "requests": entry.num_requests,
            "failures": entry.num_failures,
            "rps": entry.num_requests / elapsed,
            **{f"p{int(p * 100)}": entry.get_response_time_percentile(p) for p in PERCENTILES},
        }
    errors = [f"{e.name}: {e.error} (x{e.occurrences})" for e in env.stats.errors.values()]
    return {"seconds": elapsed, "rows": rows, "errors": errors, "cpu": cpu}


def _probe(
    scenario: Planned,
    sessions: list[Session],
    host: str,
    config: dict[str, Any],
    rounds: int,
    total: dict[str, Any],
) -> None:
    """One round of one scenario alone, added to its `total`."""
    scenario_sessions = sessions if scenario["audience"] == "signed-in" else []
    reader = _user_class("Probe", [scenario], scenario_sessions, host, constant(0))
    phase = _run(
        [reader],
        config["probe_users"],
        config["probe_seconds"] / rounds,
        after_spawn=True,
        server_pid=config.get("server_pid"),
    )
    row = phase["rows"].get(scenario["name"], {})
    for part, spent in phase["cpu"].items():
        known = total["cpu"][part]
        total["cpu"][part] = None if spent is None or known is None else known + spent
    total["requests"] += row.get("requests", 0)
    total["failures"] += row.get("failures", 0)
    total["seconds"] += phase["seconds"]
    total["errors"] += phase["errors"]


def _per_request_ms(cpu_seconds: float | None, requests: int) -> float | None:
    return 1000 * cpu_seconds / requests if cpu_seconds is not None and requests else None


def _warm_readers(plan: list[dict[str, Any]], sessions: list[dict[str, Any]], host: str) -> None:
    """Open every signed-in page once for each test account. A reader's pages are kept for them
    alone, so the anonymous warm-up leaves them cold, and a probe would count their first
    renders (a hundred source pages for five readers) rather than the page's capacity."""
    visits = [
        (path, "; ".join(f"{k}={v}" for k, v in session["cookies"].items()))
        for scenario in plan
        if scenario["method"] == "GET" and scenario["audience"] == "signed-in"
        for path in scenario["paths"]
        for session in sessions
    ]

    def visit(visit: tuple[str, str]) -> None:
        path, cookie = visit
        request = urllib.request.Request(host + path, headers={"Cookie": cookie})
        with contextlib.suppress(OSError), urllib.request.urlopen(request, timeout=30) as page:
            page.read()

    gevent.pool.Pool(8).map(visit, visits)


def main(config_path: str, result_path: str) -> None:
    with open(config_path) as stream:
        config = json.load(stream)
    host, plan, sessions = config["host"], config["plan"], config["sessions"]
    users = config["users"]
    result: dict[str, Any] = {"capacity": {}, "mix": None}

    # Warm up: one pass over every URL, so the first probe does not pay for cold caches.
    warm = [dict(s, weight=1) for s in plan if s["method"] == "GET"]
    _run([_user_class("Warm", warm, [], host, constant(0))], min(users, 10), 3)
    _warm_readers(plan, sessions, host)

    rounds = max(1, config.get("probe_rounds", 1))
    totals: dict[str, dict[str, Any]] = {
        s["name"]: {
            "requests": 0,
            "failures": 0,
            "seconds": 0.0,
            "errors": [],
            "cpu": dict.fromkeys(CPU_PARTS, 0.0),
        }
        for s in plan
    }
    # Pages first, writes after: a bookmark toggle rightly drops the toggling reader's cached
    # pages, so probing writes between the rounds of pages would measure every signed-in page's
    # cold start once per round instead of its capacity. The mix runs them together.
    reads = [s for s in plan if s["method"] == "GET"]
    writes = [s for s in plan if s["method"] != "GET"]
    for label, scenarios in (("pages", reads), ("writes", writes)):
        for round_number in range(1, rounds + 1):
            for scenario in scenarios:
                _probe(scenario, sessions, host, config, rounds, totals[scenario["name"]])
            print(
                f"capacity: {label}, round {round_number}/{rounds} done",
                file=sys.stderr,
                flush=True,
            )
    for name, total in totals.items():
        cpu = total.pop("cpu")
        result["capacity"][name] = total | {
            "rps": total["requests"] / total["seconds"],
            "cpu_ms": _per_request_ms(cpu["app"], total["requests"]),
            "db_cpu_ms": _per_request_ms(cpu["db"], total["requests"]),
            "machine_cpu_ms": _per_request_ms(cpu["all"], total["requests"]),
        }

    think = between(0, config["think"]) if config["think"] else constant(0)
    anonymous = [s for s in plan if s["audience"] == "anonymous"]
    signed_in = [s for s in plan if s["audience"] == "signed-in"]
    classes: list[type[User]] = [_user_class("Anonymous", anonymous, [], host, think)]
    if signed_in and sessions:
        member = _user_class("Member", signed_in, sessions, host, think)
        # About a third of the users are signed in.
        classes[0].weight, member.weight = 2, 1
        classes.append(member)
    result["mix"] = _run(classes, users, config["seconds"])
    with open(result_path, "w") as stream:
        json.dump(result, stream)


if __name__ == "__main__":
    main(*sys.argv[1:3])
