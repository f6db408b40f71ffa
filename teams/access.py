"""Team lookups for views: whoever is not a member gets 404, so slugs and ids reveal nothing."""

from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404

from accounts.time_zones import readers_time_zone

from .models import Membership, Team

__all__ = ["member_team", "readers_time_zone"]


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
