import contextlib
import json
import os
import re
import secrets
import subprocess
import sys
import tempfile
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from email.message import Message
from http.cookies import SimpleCookie
from typing import Any, Protocol

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection
from django.urls import reverse

from accounts.models import User
from bench.loadtest.scenarios import PROBE, TRIVIAL, PlannedScenario, resolve
from catalog.models import Source
from readinglist.local_server import BASE_DIR, collect_static, gunicorn, production_env, redis_url

TEST_EMAIL = "loadtest-{}@loadtest.invalid"
# What the locust runner wrote (bench/loadtest/runner.py): JSON, read back as it is.
Result = dict[str, Any]


class _WithHeaders(Protocol):
    """An answer urllib gives: a response, or the HTTPError a redirect raises."""

    @property
    def headers(self) -> Message: ...


class Command(BaseCommand):
    help = (
        "Start gunicorn with production settings on 127.0.0.1, replay a realistic mix with "
        "locust, and print throughput (also as a ratio to a trivial view) and latency."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--users", type=int, default=50, help="Concurrent users (50).")
        parser.add_argument("--seconds", type=int, default=60, help="Length of the mix (60).")
        parser.add_argument(
            "--probe-seconds", type=int, default=8, help="Capacity probe per page (8 s)."
        )
        parser.add_argument(
            "--probe-rounds",
            type=int,
            default=4,
            help="Rounds the probe time is split into, each visiting every page (4).",
        )
        parser.add_argument(
            "--probe-users",
            type=int,
            default=12,
            help="Users in each capacity probe, no think time (12: saturates the workers).",
        )
        parser.add_argument(
            "--think", type=float, default=1.0, help="Think time between 0 and this (1.0 s)."
        )
        parser.add_argument("--workers", type=int, default=3, help="gunicorn workers (3).")
        parser.add_argument(
            "--threads",
            type=int,
            default=4,
            help="Threads per gunicorn worker (4, as gunicorn.conf.py).",
        )
        parser.add_argument("--accounts", type=int, default=5, help="Signed-in test accounts.")
        parser.add_argument(
            "--cache",
            choices=["auto", "redis", "database"],
            default="auto",
            help="The server's shared cache (sessions, page cache): Redis at REDIS_URL or "
            "redis://127.0.0.1:6379/1, or the database table production falls back to. auto "
            "(default): Redis when one answers, as production is advised to run several processes.",
        )
        parser.add_argument("--json", help="Also write the raw results to this file.")

    def handle(self, *args: Any, **options: Any) -> None:
        if connection.vendor != "postgresql":
            self.stderr.write(
                self.style.WARNING(
                    "Not on PostgreSQL: SQLite serialises writes, so these figures say little "
                    "about production. Set DATABASE_URL=postgres://…"
                )
            )
        cache_env, cache_label = self._cache(options["cache"])
        if "REDIS_URL" not in cache_env:
            # Production settings without Redis keep the cache in a database table.
            subprocess.run(
                [sys.executable, "manage.py", "createcachetable"],
                cwd=BASE_DIR,
                env=production_env(**cache_env),
                check=True,
                stdout=subprocess.DEVNULL,
            )
        options["cache_env"], options["cache_label"] = cache_env, cache_label
        if not Source.objects.exists():
            call_command("load_catalog", verbosity=0)
        plan, skipped = resolve()
        for reason in skipped:
            self.stdout.write(f"skipped {reason}")
        password = secrets.token_urlsafe(16)
        users = self._create_accounts(options["accounts"], password)
        try:
            result = self._run(plan, users, password, options)
        finally:
            get_user_model().objects.filter(pk__in=[u.pk for u in users]).delete()
        if options["json"]:
            with open(options["json"], "w") as stream:
                json.dump(result, stream, indent=2)
        self._report(plan, result, options)

    @staticmethod
    def _cache(choice: str) -> tuple[dict[str, str], str]:
        """The server's cache environment and how to name it in the report."""
        url = redis_url() if choice in {"auto", "redis"} else None
        if choice == "redis" and url is None:
            raise CommandError(
                "--cache redis: no Redis answers at REDIS_URL or redis://127.0.0.1:6379/1, "
                "or the redis package is not installed."
            )
        if url:
            return {"REDIS_URL": url, "CACHE_URL": ""}, f"Redis ({url})"
        label = "database table" + (" (no Redis answered)" if choice == "auto" else "")
        return {"REDIS_URL": "", "CACHE_URL": ""}, label

    def _create_accounts(self, count: int, password: str) -> list[User]:
        User = get_user_model()
        User.objects.filter(email__endswith="@loadtest.invalid").delete()
        return [User.objects.create_user(TEST_EMAIL.format(n), password) for n in range(count)]

    def _run(
        self,
        plan: list[PlannedScenario],
        users: list[User],
        password: str,
        options: dict[str, Any],
    ) -> Result:
        with (
            tempfile.TemporaryDirectory() as tmp,
            open(os.path.join(tmp, "gunicorn.log"), "w+") as log,
            self._production(tmp, options["cache_env"], options["threads"]) as env,
            gunicorn(env=env, workers=options["workers"], log=log) as (url, process),
        ):
            sessions = [self._log_in(url, user.email, password) for user in users]
            config = {
                "host": url,
                # The arbiter: the CPU it and its workers spend is read around each probe.
                "server_pid": process.pid,
                "plan": plan,
                "sessions": sessions,
                "users": options["users"],
                "seconds": options["seconds"],
                "probe_seconds": options["probe_seconds"],
                "probe_users": options["probe_users"],
                "probe_rounds": options["probe_rounds"],
                "think": options["think"],
            }
            config_path, result_path = os.path.join(tmp, "c.json"), os.path.join(tmp, "r.json")
            with open(config_path, "w") as stream:
                json.dump(config, stream)
            self.stdout.write(
                f"gunicorn on {url}, {options['workers']} workers x {options['threads']} "
                f"threads, cache: "
                f"{options['cache_label']}; {options['users']} users; "
                f"{len(plan)} scenarios x {options['probe_seconds']} s capacity probes, then "
                f"the mix for {options['seconds']} s..."
            )
            runner = subprocess.run(
                [sys.executable, "-m", "bench.loadtest.runner", config_path, result_path],
                cwd=BASE_DIR,
                check=False,
                env={**os.environ, "PYTHONWARNINGS": "ignore"},
            )
            if runner.returncode != 0:
                raise CommandError(f"locust exited with status {runner.returncode}")
            with open(result_path) as stream:
                return json.load(stream)

    @staticmethod
    @contextlib.contextmanager
    def _production(tmp: str, cache_env: dict[str, str], threads: int) -> Iterator[dict[str, str]]:
        env = production_env(
            GUNICORN_ACCESS_LOG="",
            LOG_LEVEL="WARNING",
            STATIC_ROOT=os.path.join(tmp, "static"),
            GUNICORN_THREADS=threads,
            # A few test accounts stand in for many readers: with the per-account note limit
            # the note writes would measure refusals after the first minute.
            NOTES_MAX_PER_HOUR="1000000",
            **cache_env,
        )
        collect_static(env)
        yield env

    def _log_in(self, url: str, email: str, password: str) -> dict[str, Any]:
        """Log a test account in through the real login form; returns its cookies.

        By hand rather than with a cookie jar: production cookies are Secure, and this is
        plain HTTP on loopback.
        """
        login = url + reverse("account_login")
        with urllib.request.urlopen(login, timeout=10) as response:
            cookies = _set_cookies(response)
            page = response.read().decode()
        found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        if found is None:
            raise CommandError(f"No login form at {login}")
        token = found.group(1)
        body = urllib.parse.urlencode(
            {"login": email, "password": password, "csrfmiddlewaretoken": token}
        ).encode()
        request = urllib.request.Request(login, data=body, headers={"Cookie": _header(cookies)})
        try:
            with urllib.request.build_opener(_KeepRedirect).open(request, timeout=10) as response:
                cookies |= _set_cookies(response)
        except urllib.error.HTTPError as redirect:  # the 302 that follows a good login
            cookies |= _set_cookies(redirect)
        if "sessionid" not in cookies:
            raise CommandError(f"Could not log {email} in through {login}")
        # Open the page the login leads to, as a browser does: it shows the "signed in" message
        # and the server deletes the message cookie. Replaying that cookie with every request
        # would make each measured page one with a message waiting, which is never a cached one.
        landing = urllib.request.Request(url + "/", headers={"Cookie": _header(cookies)})
        with urllib.request.urlopen(landing, timeout=10) as response:
            for name, value in _set_cookies(response).items():
                if value:
                    cookies[name] = value
                else:
                    cookies.pop(name, None)
        return {"cookies": cookies, "csrf": cookies["csrftoken"]}

    def _report(self, plan: list[PlannedScenario], result: Result, options: dict[str, Any]) -> None:
        out = self.stdout.write
        out("")
        out(
            f"Server: gunicorn, {options['workers']} workers x {options['threads']} threads, "
            f"production settings; cache: {options['cache_label']}; database: "
            f"{connection.vendor}; {os.cpu_count()} CPUs"
        )
        missed = self._report_capacity(plan, result, options)
        self._report_mix(result["mix"], options)
        out(
            "Throughput targets are ratios to the trivial view: every page (GET) 0.5, a bookmark "
            "toggle 0.3, adding a note 0.2. The probe is answered before sessions, CSRF and CSP "
            "run."
        )
        if missed:
            out(self.style.WARNING("Below the throughput target: " + ", ".join(missed)))

    def _report_capacity(
        self, plan: list[PlannedScenario], result: Result, options: dict[str, Any]
    ) -> list[str]:
        """Print each page's capacity beside its target; returns the pages below it."""
        audience = {s["name"]: s["audience"] for s in plan}
        # Every page has the same target; the writes (a bookmark toggle, a note) their own.
        targets = {s["name"]: s.get("target") for s in plan}
        base = _reference_rps(result, audience, TRIVIAL)
        probe = _reference_rps(result, audience, PROBE)
        out = self.stdout.write
        out(
            f"Capacity: each page alone, {options['probe_users']} users, no think time, "
            f"{options['probe_seconds']} s in {options['probe_rounds']} rounds"
        )
        out(
            f"{'page':<28} {'audience':<10} {'req/s':>8} {'x trivial':>9} {'x probe':>8} "
            f"{'target':>7}  errors  app ms   db ms  all ms"
        )
        missed = []
        for name, row in result["capacity"].items():
            rps = row.get("rps", 0.0)
            ratio = rps / base if base else 0.0
            target = targets.get(name)
            verdict = ""
            if target is not None:
                verdict = f"≥{target:.0%}" + (" ✓" if ratio >= target else " ✗")
                if ratio < target:
                    missed.append(name)
            to_probe = f"{rps / probe:.2f}" if probe else "-"
            cpu = "  ".join(
                f"{_ms(row.get(key)):>6}" for key in ("cpu_ms", "db_cpu_ms", "machine_cpu_ms")
            )
            out(
                f"{name:<28} {audience[name]:<10} {rps:>8.1f} {ratio:>9.2f} {to_probe:>8} "
                f"{verdict:>7}  {row.get('failures', 0):>6}  {cpu}"
            )
        for row in result["capacity"].values():
            for error in row.get("errors", []):
                out(f"  error: {error}")
        out(
            "CPU per request during the probe (user and system; - where it cannot be read): "
            "app, the gunicorn processes;\ndb, PostgreSQL and Redis; all, the whole machine, "
            "the load generator included. They move less than req/s when the machine is "
            "shared;\nwith every core busy, a page's capacity is the machine's CPU over its "
            "all ms."
        )
        return missed

    def _report_mix(self, mix: Result, options: dict[str, Any]) -> None:
        """Print the mix's latency per page and its errors."""
        out = self.stdout.write
        out("")
        out(
            f"Mix: {options['users']} users for {mix['seconds']:.0f} s, think time "
            f"0-{options['think']} s (latency in ms)"
        )
        out(f"{'page':<28} {'requests':>8} {'req/s':>7} {'p50':>6} {'p95':>6} {'p99':>6}  errors")
        total = failures = 0
        for name, row in sorted(mix["rows"].items()):
            total += row["requests"]
            failures += row["failures"]
            out(
                f"{name:<28} {row['requests']:>8} {row['rps']:>7.1f} {row['p50']:>6.0f} "
                f"{row['p95']:>6.0f} {row['p99']:>6.0f}  {row['failures']}"
            )
        out(f"{'total':<28} {total:>8} {total / mix['seconds']:>7.1f}{'':>21}  {failures}")
        for error in mix["errors"]:
            out(f"  error: {error}")
        out("")
        out(f"Errors in the mix: {failures}")


def _ms(value: float | None) -> str:
    return f"{value:.2f}" if value is not None else "-"


def _reference_rps(result: Result, audience: dict[str, str], kind: str) -> float | None:
    """Requests per second of the scenario of that audience (the trivial view, the probe)."""
    row = next((result["capacity"][n] for n, a in audience.items() if a == kind), None)
    return row["rps"] if row and row.get("rps") else None


def _set_cookies(response: _WithHeaders) -> dict[str, str]:
    jar = SimpleCookie()
    for header in response.headers.get_all("Set-Cookie") or []:
        jar.load(header)
    return {name: morsel.value for name, morsel in jar.items()}


def _header(cookies: dict[str, str]) -> str:
    return "; ".join(f"{name}={value}" for name, value in cookies.items())


class _KeepRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None
