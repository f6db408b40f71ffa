"""Django's PostgreSQL backend with one change: an unreachable database is waited on once.

With the connection pool, every attempt to connect waits up to the pool's timeout. During an
outage one request can try several times: the session is read through its cache and then its
table, the page cache fails open and lets the view try again, the request log asks who the
reader is. Each wait is the full timeout, and together they pushed the 503 page past ten
seconds. Once an attempt has failed, further attempts on the same connection handle (one per
thread) fail at once until the next request starts or UNREACHABLE_SECONDS pass, whichever
is first; the latter bounds it for commands and workers that run outside requests.
"""

import time
from typing import Any

import psycopg
from django.db.backends.postgresql import base

UNREACHABLE_SECONDS = 2.0


class DatabaseWrapper(base.DatabaseWrapper):
    unreachable_until = 0.0

    def get_new_connection(self, conn_params: dict[str, Any]) -> Any:
        if time.monotonic() < self.unreachable_until:
            raise psycopg.OperationalError("the database was unreachable a moment ago")
        try:
            return super().get_new_connection(conn_params)
        except psycopg.OperationalError:
            self.unreachable_until = time.monotonic() + UNREACHABLE_SECONDS
            raise

    def close_if_unusable_or_obsolete(self) -> None:
        # Called as each request starts and ends: a new request tries the database afresh.
        self.unreachable_until = 0.0
        super().close_if_unusable_or_obsolete()
