"""Team lookups for views: whoever is not a member gets 404, so slugs and ids reveal nothing."""

import zoneinfo
from contextlib import contextmanager

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils import timezone

from .models import Membership, Team


def member_team(request, slug: str, *, owner: bool = False) -> tuple[Team, Membership]:
    team = get_object_or_404(Team, slug=slug)
    member = (
        Membership.objects.filter(team=team, user=request.user).first()
        if request.user.is_authenticated
        else None
    )
    if member is None or (owner and not member.is_owner):
        raise Http404("No team here.")
    return team, member


@contextmanager
def readers_time_zone(user):
    """Show and read times in the reader's own zone."""
    name = getattr(user, "time_zone", "") or "UTC"
    try:
        zone = zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        zone = zoneinfo.ZoneInfo("UTC")
    with timezone.override(zone):
        yield zone
