"""Structured logs: one JSON object per line on stdout, and one line per request.

Every request gets an id, taken from the proxy's X-Request-ID when it looks like one (so a trace
can be followed from the load balancer through the app) or made fresh otherwise; it is echoed in
the response and carried on every log record written while the request runs.
"""

import contextvars
import json
import logging
import re
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime

from django.contrib.auth import SESSION_KEY, get_user_model
from django.http import HttpRequest, HttpResponse
from django.utils.functional import empty

request_id_var: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "request_id", default=None
)

# Ids we accept from upstream: short and made of characters that cannot forge log structure.
_SANE_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")

request_logger = logging.getLogger("readinglist.request")

# Attributes every LogRecord has; anything else was passed through `extra=` and is logged.
_RECORD_ATTRS = set(vars(logging.makeLogRecord({}))) | {"message", "asctime", "taskName"}


class JSONFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        request_id = getattr(record, "request_id", None) or request_id_var.get()
        if request_id:
            entry["request_id"] = request_id
        for key, value in vars(record).items():
            if key not in _RECORD_ATTRS and key not in entry:
                entry[key] = value
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str, ensure_ascii=False)


def _request_id(request: HttpRequest) -> str:
    offered = request.headers.get("X-Request-ID", "")
    return offered if _SANE_REQUEST_ID.match(offered) else uuid.uuid4().hex


def _user_id(request: HttpRequest) -> int | None:
    # Only what the request already loaded: logging must not query (the database may be down).
    user = getattr(request, "user", None)
    user = getattr(user, "_wrapped", user)
    if user is not None and user is not empty:
        return user.pk if user.is_authenticated else None
    # A reader's page served from the page cache names its reader in the session alone.
    session = getattr(request, "session", None)
    if session is not None and session.accessed:
        user_id = session.get(SESSION_KEY)
        return get_user_model()._meta.pk.to_python(user_id) if user_id else None
    return None


class LoggedRequest(HttpRequest):
    """A request RequestLogMiddleware tagged: `request.id` names it in every log line."""

    id: str


class RequestLogMiddleware:
    """Tag the request with an id and log method, path, status, duration and user once."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: LoggedRequest) -> HttpResponse:
        request.id = _request_id(request)
        token = request_id_var.set(request.id)
        started = time.perf_counter()
        status = 500
        try:
            response = self.get_response(request)
            status = response.status_code
            response["X-Request-ID"] = request.id
            return response
        finally:
            request_logger.info(
                "%s %s %s",
                request.method,
                request.path,
                status,
                extra={
                    "request_id": request.id,
                    "method": request.method,
                    "path": request.path,
                    "status": status,
                    "duration_ms": round((time.perf_counter() - started) * 1000, 1),
                    "user_id": _user_id(request),
                },
            )
            request_id_var.reset(token)
