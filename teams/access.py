"""Team lookups for views: whoever is not a member gets 404, so slugs and ids reveal nothing."""

from collections.abc import Callable
from functools import wraps

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404

from accounts.time_zones import readers_time_zone

from .models import Departure, Membership, Team

__all__ = ["departure", "member_team", "owner_action", "readers_time_zone"]

View = Callable[..., HttpResponse]


def member_team(request: HttpRequest, slug: str, *, owner: bool = False) -> tuple[Team, Membership]:
    team = get_object_or_404(Team, slug=slug)
    member = (
        Membership.objects.filter(team=team, user=request.user).first()
        if request.user.is_authenticated
        else None
    )
    if member is None or (owner and not member.is_owner):
        raise Http404("No team here.")
    return team, member


def departure(request: HttpRequest, slug: str) -> Departure | None:
    """How the signed-in reader stopped being a member of this team, if they once were one and
    are not now. Only they learn from it that the team still exists; nobody else is told."""
    if not request.user.is_authenticated:
        return None
    found = Departure.objects.filter(team__slug=slug, user=request.user).select_related("team")
    return found.exclude(team__memberships__user=request.user).first()


def owner_action(view: View) -> View:
    """An owner's action answers a visitor who is not signed in as it answers a non-member: 404,
    before anything is read or changed. Sending them to sign in would single out the URLs where
    something could be done; an owner reaches these pages from the team's page, signed in."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        if not request.user.is_authenticated:
            raise Http404("No team here.")
        return view(request, *args, **kwargs)

    return wrapped
