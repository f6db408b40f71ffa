"""The DATABASES setting: an embedded SQLite file by default, PostgreSQL from DATABASE_URL."""

from pathlib import Path
from typing import Any

import environ


def databases(env: environ.Env, base_dir: Path) -> dict[str, dict[str, Any]]:
    # Without DATABASE_URL the site runs on an embedded SQLite file, so `make run` needs no server.
    default = env.db_url("DATABASE_URL", default=f"sqlite:///{base_dir / 'db.sqlite3'}")
    if default["ENGINE"] == "django.db.backends.postgresql":
        _tune_postgresql(env, default)
    return {"default": default}


def _tune_postgresql(env: environ.Env, database: dict[str, Any]) -> None:
    # psycopg's pool replaces persistent connections: a dead connection is checked and replaced
    # by the pool, so the app recovers from a database restart without restarting workers.
    database["CONN_MAX_AGE"] = 0
    # Django's backend, waiting on an unreachable database once per request, not once per query.
    database["ENGINE"] = "readinglist.postgresql"
    # A request gives up early when the database does not answer, so a worker thread is free
    # again long before gunicorn's timeout and answers 503 instead (docs/caching.md, "Timeouts").
    # gunicorn.conf.py sets the statement timeout for web workers; commands (migrate, loads,
    # backups) run without one unless it is set.
    database["OPTIONS"] = {
        **database.get("OPTIONS", {}),
        "connect_timeout": env.int("DATABASE_CONNECT_TIMEOUT", default=2),
    }
    if statement_timeout := env.int("DATABASE_STATEMENT_TIMEOUT_MS", default=0):
        database["OPTIONS"]["options"] = f"-c statement_timeout={statement_timeout}"
    if env.bool("DATABASE_POOL", default=True):
        from psycopg_pool import ConnectionPool

        database["OPTIONS"]["pool"] = {
            "min_size": env.int("DATABASE_POOL_MIN", default=1),
            "max_size": env.int("DATABASE_POOL_MAX", default=8),
            "timeout": env.float("DATABASE_POOL_TIMEOUT", default=2.0),
            # Test each connection as it leaves the pool (one round trip): after a database
            # restart the dead ones are replaced instead of failing a request each.
            "check": ConnectionPool.check_connection,
        }
