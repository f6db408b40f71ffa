"""Probes for load balancers and orchestrators: cheap, unauthenticated, never cached.

/healthz answers "is this process serving?" and touches nothing else, so a database outage does
not make every app process look dead (restarting them would not help). /readyz answers "should
this process get traffic?": the database answers and every migration in the code is applied.
"""

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.executor import MigrationExecutor
from django.db.utils import DatabaseError
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe


@never_cache
@require_safe
def healthz(request):
    return JsonResponse({"status": "ok"})


def _unready(reason):
    response = JsonResponse({"status": "unavailable", "reason": reason}, status=503)
    response["Retry-After"] = "5"
    return response


@never_cache
@require_safe
def readyz(request):
    connection = connections[DEFAULT_DB_ALIAS]
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
        pending = 0 if _migrated else _pending_migrations(connection)
    except DatabaseError as error:
        return _unready(f"database unreachable: {error.__class__.__name__}")
    if pending:
        return _unready(f"{pending} migration(s) not applied")
    _mark_migrated()
    return JsonResponse({"status": "ok"})


# Migrations are only ever applied forwards, so once this process has seen an empty plan it keeps
# the answer and each later probe costs one SELECT 1 instead of loading the migration graph.
_migrated = False


def _mark_migrated():
    global _migrated
    _migrated = True


def _pending_migrations(connection):
    executor = MigrationExecutor(connection)
    return len(executor.migration_plan(executor.loader.graph.leaf_nodes()))


PROBES = {"/healthz": healthz, "/readyz": readyz}


class ProbeMiddleware:
    """Answer the probes before host validation, HTTPS redirects and sessions.

    Probes arrive with whatever Host the prober uses (a container's 127.0.0.1, a pod IP), which
    ALLOWED_HOSTS rightly does not list, and over plain HTTP inside the network.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        probe = PROBES.get(request.path_info)
        return probe(request) if probe else self.get_response(request)
