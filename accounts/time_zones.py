"""One clock: every page a signed-in reader sees shows times in their profile's zone.

Pages that render times themselves used to pick the zone one by one, so the same note showed
two different times on two pages. The middleware makes it the default for the whole request;
`<time datetime>` attributes still carry UTC for machines.
"""

import zoneinfo
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta, tzinfo

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest, HttpResponse
from django.utils import timezone


def zone_of(user: AbstractBaseUser | AnonymousUser) -> zoneinfo.ZoneInfo:
    """The reader's zone; UTC for visitors and for a name this system does not know."""
    name = getattr(user, "time_zone", "") or "UTC"
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


@contextmanager
def readers_time_zone(user: AbstractBaseUser | AnonymousUser) -> Iterator[zoneinfo.ZoneInfo]:
    """Show and read times in the reader's own zone."""
    zone = zone_of(user)
    with timezone.override(zone):
        yield zone


class ReadersZone(tzinfo):
    """The signed-in reader's zone, looked up only when a time is first shown: a page the page
    cache answers without loading the reader's row stays that way (pagecache/middleware.py)."""

    def __init__(self, request: HttpRequest) -> None:
        self._request = request
        self._zone: tzinfo | None = None

    @property
    def zone(self) -> tzinfo:
        if self._zone is None:
            user = getattr(self._request, "user", None)
            if user is not None and user.is_authenticated:
                self._zone = zone_of(user)
            else:
                self._zone = zoneinfo.ZoneInfo("UTC")
        return self._zone

    def _in_zone(self, moment: datetime | None) -> datetime | None:
        return moment.replace(tzinfo=self.zone) if moment is not None else None

    def utcoffset(self, moment: datetime | None) -> timedelta | None:
        return self.zone.utcoffset(self._in_zone(moment))

    def dst(self, moment: datetime | None) -> timedelta | None:
        return self.zone.dst(self._in_zone(moment))

    def tzname(self, moment: datetime | None) -> str | None:
        return self.zone.tzname(self._in_zone(moment))

    def fromutc(self, moment: datetime) -> datetime:
        return self.zone.fromutc(moment.replace(tzinfo=self.zone)).replace(tzinfo=self)

    def __str__(self) -> str:
        return str(self.zone)

    @property
    def key(self) -> str:
        return getattr(self.zone, "key", "UTC")


class ReaderTimeZoneMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not hasattr(request, "session"):
            return self.get_response(request)
        with timezone.override(ReadersZone(request)):
            return self.get_response(request)
