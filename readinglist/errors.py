"""Error pages that must render while the database is down."""

import sys

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, HttpResponseServerError
from django.template.loader import render_to_string

RETRY_AFTER_SECONDS = 5
DATABASE_ERRORS = (OperationalError, InterfaceError)


def database_unavailable(request: HttpRequest) -> HttpResponse:
    # Rendered without the request context: its processors (user, messages) would query the
    # very database that is down.
    response = HttpResponse(
        render_to_string("503.html", {"retry_after": RETRY_AFTER_SECONDS}), status=503
    )
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"
    return response


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: a database failure outside a view (a middleware, the session) is still a 503."""
    if isinstance(sys.exc_info()[1], DATABASE_ERRORS):
        return database_unavailable(request)
    return HttpResponseServerError(render_to_string("500.html"))


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """handler400: a form sent with more text than any field takes (a pasted file, say) says so
    and how much the site accepts; the browser's Back button still holds what was typed."""
    too_big = isinstance(exception, RequestDataTooBig)
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 0
    context = {"too_big": too_big, "limit_mb": f"{limit / 1_000_000:.1f}"}
    return HttpResponseBadRequest(render_to_string("400.html", context, request=request))
