"""Error pages that must render while the database is down."""

import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, HttpResponseServerError
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
