"""gunicorn settings, all from the environment (the Docker image and `make loadtest` use it).

WEB_CONCURRENCY    worker processes (default: 2 per CPU + 1, at most 8)
GUNICORN_THREADS   threads per worker (default 4: gthread workers; a thread waiting on the database
                   or the cache leaves the others, and the probes, answering)
GUNICORN_TIMEOUT   seconds a request may run before its worker is replaced (default 30)
GUNICORN_GRACEFUL_TIMEOUT  seconds a worker gets to finish in-flight requests on restart (30)
GUNICORN_KEEPALIVE seconds an idle keep-alive connection stays open (default 5)
PORT / BIND        where to listen (default 0.0.0.0:$PORT, PORT 8000)
GUNICORN_MAX_REQUESTS, GUNICORN_MAX_REQUESTS_JITTER  recycle a worker after that many requests (0)
GUNICORN_LOG_LEVEL, GUNICORN_WORKER_TMP_DIR  gunicorn's own log level, and its heartbeat folder
DATABASE_STATEMENT_TIMEOUT_MS  a web request's longest query (default 10000; the settings read it)
GUNICORN_ACCESS_LOG  "-" (stdout, the default) or "" to leave request lines to the app's own log
"""

import multiprocessing
import os
from pathlib import Path

import environ

# The same .env the settings read (readinglist/settings.py: ENV_FILE, empty for none), so BIND
# and the GUNICORN_* lines there apply; variables already set win.
_env_file = os.environ.get("ENV_FILE", str(Path(__file__).resolve().parent / ".env"))
if _env_file:
    environ.Env.read_env(_env_file, overwrite=False)


def _int(name, default):
    value = os.environ.get(name, "").strip()
    return int(value) if value else default


bind = os.environ.get("BIND") or f"0.0.0.0:{_int('PORT', 8000)}"
workers = _int("WEB_CONCURRENCY", min(multiprocessing.cpu_count() * 2 + 1, 8))
threads = _int("GUNICORN_THREADS", 4)
# Web requests give up on a query long before `timeout` kills their worker, so the reader gets the
# 503 page and the thread is free again. Workers read it when they import the settings.
os.environ.setdefault("DATABASE_STATEMENT_TIMEOUT_MS", "10000")
timeout = _int("GUNICORN_TIMEOUT", 30)
graceful_timeout = _int("GUNICORN_GRACEFUL_TIMEOUT", 30)
keepalive = _int("GUNICORN_KEEPALIVE", 5)
max_requests = _int("GUNICORN_MAX_REQUESTS", 0)
max_requests_jitter = _int("GUNICORN_MAX_REQUESTS_JITTER", 0)

# Logs go to stdout/stderr for the container runtime to collect; access lines are JSON so they
# parse like the app's own log lines.
accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "-") or None
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")
access_log_format = (
    '{"logger": "gunicorn.access", "remote": "%(h)s", "method": "%(m)s", "path": "%(U)s", '
    '"query": "%(q)s", "status": %(s)s, "bytes": "%(B)s", "duration_ms": %(M)s, '
    '"request_id": "%({x-request-id}o)s", "user_agent": "%(a)s"}'
)
# Behind a proxy that terminates TLS, trust its X-Forwarded-* headers (FORWARDED_ALLOW_IPS).
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
# The bookmarklet brings the passage a reader selected in /save/'s address (library/quoting.py
# keeps it under 5,000 bytes): gunicorn's default 4,094-byte request line would refuse a long one.
limit_request_line = 8190
# Workers import the app after fork, so each builds its own database pool.
preload_app = False
worker_tmp_dir = os.environ.get("GUNICORN_WORKER_TMP_DIR") or None
