"""Response headers and failure handling that every page shares."""

import logging
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from .errors import DATABASE_ERRORS, database_unavailable

logger = logging.getLogger("readinglist.database")

# The site uses none of these browser features; denying them limits what injected code could do.
PERMISSIONS_POLICY = ", ".join(
    f"{feature}=()"
    for feature in (
        "accelerometer",
        "autoplay",
        "camera",
        "display-capture",
        "geolocation",
        "gyroscope",
        "magnetometer",
        "microphone",
        "midi",
        "payment",
        "usb",
        "interest-cohort",
    )
)


class PermissionsPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.setdefault("Permissions-Policy", PERMISSIONS_POLICY)
        return response


class DatabaseUnavailableMiddleware:
    """Turn a lost or refused database connection into a 503 page instead of a 500.

    The pool has already discarded the broken connection, so the next request gets a fresh one:
    the app recovers by itself once the database is back, with no worker restart.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, DATABASE_ERRORS):
            return None
        logger.warning("database unavailable: %s", exception.__class__.__name__, exc_info=True)
        return database_unavailable(request)
