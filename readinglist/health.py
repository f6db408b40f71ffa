"""Probes for load balancers and orchestrators: cheap, unauthenticated, never cached.

/healthz answers "is this process serving?" (and which release it runs) and touches nothing
else (it is answered before sessions, authentication and the page cache), so a database outage
does not make every app process look dead (restarting them would not help). /readyz answers
"should this process get traffic?" within READY_BUDGET_SECONDS: 503 when the database does not
answer or a migration is not applied, 200 "degraded" when only the cache is down (pages are then
rendered without it), 200 "ok" otherwise.

Apps add reports to /readyz with `add_report` (operations: each scheduled job's age against its
period). A report reads on the probe's own database connection, under a short statement
timeout, and fails open: a report that cannot be read is left out, never a reason for 503. A
problem a report finds makes the answer 200 "degraded", not 503, because it is not this
process's to fix: a late cron job must not take every web replica out of the load balancer.
"""

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import psycopg
from django.conf import settings
from django.core.cache import caches
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.migrations.executor import MigrationExecutor
from django.db.utils import DatabaseError
from django.http import HttpRequest, JsonResponse
from django.http.response import HttpResponseBase
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from readinglist.metrics import metrics

from . import __version__
from .pagecache.failsafe import CACHE_ERRORS

# The database check runs in a thread of its own so a database that accepts connections but
# never answers cannot hold the probe past its budget (libpq's connect_timeout is at least 2 s).
DATABASE_CHECK_SECONDS = 0.8
READY_BUDGET_SECONDS = 1.0
PROBE_CACHE_KEY = "readyz:probe"
# Each report's query, once the database has answered; a slower one is dropped (fails open).
REPORT_QUERY_MS = 200


@dataclass(frozen=True)
class Report:
    """Something /readyz shows under `key`: `judge` turns the rows of `sql` (run read-only on
    the probe's own connection) into what the probe shows and the problem it found, if any."""

    key: str
    sql: str
    judge: Callable[[Sequence[Sequence[Any]], datetime], tuple[object, str | None]]


_reports: list[Report] = []


def add_report(report: Report) -> None:
    """Show `report` in every /readyz answer (an app calls this from its ready())."""
    if all(known.key != report.key for known in _reports):
        _reports.append(report)


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    # The release, so an operator (or a deploy script) can tell which one each process runs.
    return JsonResponse({"status": "ok", "version": __version__})


def _unready(reason: str) -> JsonResponse:
    response = JsonResponse({"status": "unavailable", "reason": reason}, status=503)
    response["Retry-After"] = "5"
    return response


def _select_one() -> dict[str, Sequence[Sequence[Any]]]:
    """One round trip on a fresh connection with its own timeouts (not the pool, whose waits
    are the ordinary requests' budget), then the reports' queries on the same connection."""
    db = settings.DATABASES[DEFAULT_DB_ALIAS]
    timeout_ms = int(DATABASE_CHECK_SECONDS * 1000)
    with psycopg.connect(
        host=db["HOST"] or None,
        port=db["PORT"] or None,
        user=db["USER"] or None,
        password=db["PASSWORD"] or None,
        dbname=db["NAME"],
        connect_timeout=2,
        options=f"-c statement_timeout={timeout_ms}",
        autocommit=True,
    ) as connection:
        connection.execute("SELECT 1")
        connection.execute(f"SET statement_timeout = {REPORT_QUERY_MS}")
        rows: dict[str, Sequence[Sequence[Any]]] = {}
        for report in _reports:
            try:
                rows[report.key] = connection.execute(report.sql).fetchall()
            except psycopg.Error:
                continue  # fail open: a missing table or a slow query only loses the report
        return rows


def _local_report_rows() -> dict[str, Sequence[Sequence[Any]]]:
    rows: dict[str, Sequence[Sequence[Any]]] = {}
    for report in _reports:
        try:
            with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
                cursor.execute(report.sql)
                rows[report.key] = cursor.fetchall()
        except DatabaseError:
            continue
    return rows


POSTGRESQL_ENGINES = ("readinglist.postgresql", "django.db.backends.postgresql")
_check_lock = threading.Lock()
_check_running: threading.Thread | None = None


def _database_error() -> tuple[str | None, dict[str, Sequence[Sequence[Any]]]]:
    """Why the database is not usable, or None, and the reports' rows; answers within
    DATABASE_CHECK_SECONDS."""
    global _check_running
    if settings.DATABASES[DEFAULT_DB_ALIAS]["ENGINE"] not in POSTGRESQL_ENGINES:
        try:  # a local file: nothing to wait for
            with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
                cursor.execute("SELECT 1")
        except DatabaseError as error:
            return f"database unreachable: {error.__class__.__name__}", {}
        return None, _local_report_rows()
    outcome: dict[str, Any] = {}

    def check() -> None:
        try:
            outcome["rows"] = _select_one()
            outcome["error"] = None
        except (DatabaseError, psycopg.Error, OSError) as error:
            outcome["error"] = f"database unreachable: {error.__class__.__name__}"

    with _check_lock:
        if _check_running is not None and _check_running.is_alive():
            # At most one check waits on a hung database per process.
            return "database unreachable: the previous check is still waiting", {}
        _check_running = threading.Thread(target=check, daemon=True, name="readyz-database")
        _check_running.start()
    _check_running.join(DATABASE_CHECK_SECONDS)
    return outcome.get("error", "database unreachable: no answer in time"), outcome.get("rows", {})


def _judged(rows: dict[str, Sequence[Sequence[Any]]]) -> tuple[dict[str, object], list[str]]:
    shown: dict[str, object] = {}
    problems: list[str] = []
    now = datetime.now(UTC)
    for report in _reports:
        if report.key not in rows:
            continue
        try:
            found, problem = report.judge(rows[report.key], now)
        except (TypeError, ValueError):
            continue  # rows of an unexpected shape: fail open as for an unreadable report
        if found:  # nothing to show (no scheduler ran here yet) is left out
            shown[report.key] = found
        if problem:
            problems.append(problem)
    return shown, problems


def _cache_error() -> str | None:
    # The page cache's stores, whose clients raise (under Redis the default one reads an outage
    # as a miss, so asking it would tell nothing).
    for alias in ("versions" if "versions" in settings.CACHES else "default", "pages"):
        try:
            caches[alias].get(PROBE_CACHE_KEY)
        except CACHE_ERRORS as error:
            return f"cache {alias!r} unreachable: {error.__class__.__name__}"
    return None


@never_cache
@require_safe
def readyz(request: HttpRequest) -> JsonResponse:
    unreachable, rows = _database_error()
    if unreachable:
        return _unready(unreachable)
    try:
        pending = 0 if _migrated else _pending_migrations(connections[DEFAULT_DB_ALIAS])
    except DatabaseError as error:
        return _unready(f"database unreachable: {error.__class__.__name__}")
    if pending:
        return _unready(f"{pending} migration(s) not applied")
    _mark_migrated()
    shown, problems = _judged(rows)
    if cache_problem := _cache_error():
        problems.insert(0, cache_problem)
    if problems:
        return JsonResponse({"status": "degraded", "reason": "; ".join(problems)} | shown)
    return JsonResponse({"status": "ok"} | shown)


# Migrations are only ever applied forwards, so once this process has seen an empty plan it keeps
# the answer and each later probe skips loading the migration graph.
_migrated = False


def _mark_migrated() -> None:
    global _migrated
    _migrated = True


def _pending_migrations(connection: BaseDatabaseWrapper) -> int:
    executor = MigrationExecutor(connection)
    return len(executor.migration_plan(executor.loader.graph.leaf_nodes()))


PROBES = {"/healthz": healthz, "/readyz": readyz, "/metrics": metrics}


class ProbeMiddleware:
    """Answer the probes before host validation, HTTPS redirects and sessions.

    Probes arrive with whatever Host the prober uses (a container's 127.0.0.1, a pod IP), which
    ALLOWED_HOSTS rightly does not list, and over plain HTTP inside the network.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        probe = PROBES.get(request.path_info)
        return probe(request) if probe else self.get_response(request)
