"""One clock: every page a signed-in reader sees shows times in their profile's zone.

Pages that render times themselves used to pick the zone one by one, so the same note showed
two different times on two pages. The middleware makes it the default for the whole request;
`<time datetime>` attributes still carry UTC for machines.
"""

import zoneinfo
from collections.abc import Callable
from contextlib import contextmanager

from django.http import HttpRequest, HttpResponse
from django.utils import timezone


def zone_of(user) -> zoneinfo.ZoneInfo:
    """The reader's zone; UTC for visitors and for a name this system does not know."""
    name = getattr(user, "time_zone", "") or "UTC"
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


@contextmanager
def readers_time_zone(user):
    """Show and read times in the reader's own zone."""
    zone = zone_of(user)
    with timezone.override(zone):
        yield zone


class ReaderTimeZoneMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return self.get_response(request)
        with readers_time_zone(user):
            return self.get_response(request)
