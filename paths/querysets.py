"""Who sees which path: one rule, written once, that every surface uses.

- private: its author only;
- team: the members of its team (a member who leaves loses it at once: the rule reads the
  memberships on every request);
- unlisted: anyone with its link, but it is listed nowhere;
- public: anyone, and listed on /lists/ among the community paths.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import models
from django.db.models import Q

from teams.models import Membership

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser

    from accounts.models import User

    Reader = User | AnonymousUser


def _teams_of(user: User) -> models.QuerySet:
    return Membership.objects.filter(user=user).values("team_id")


class PathQuerySet(models.QuerySet):
    def visible_to(self, user: Reader) -> PathQuerySet:
        """Paths the reader may open: public and unlisted ones, their own, their teams'."""
        shared = Q(visibility__in=["public", "unlisted"])
        if not user.is_authenticated:
            return self.filter(shared)
        return self.filter(shared | Q(team__isnull=True, user=user) | Q(team__in=_teams_of(user)))

    def listed_for(self, user: Reader) -> PathQuerySet:
        """Paths a list or a search may show the reader: public ones and their own and their
        teams' (an unlisted path is opened only through its link, by others)."""
        if not user.is_authenticated:
            return self.filter(visibility="public")
        return self.filter(
            Q(visibility="public") | Q(team__isnull=True, user=user) | Q(team__in=_teams_of(user))
        )

    def public(self) -> PathQuerySet:
        return self.filter(visibility="public")

    def of_reader(self, user: Reader) -> PathQuerySet:
        """The reader's own paths and their teams' paths, for their own pages."""
        if not user.is_authenticated:
            return self.none()
        return self.filter(Q(team__isnull=True, user=user) | Q(team__in=_teams_of(user)))

    def editable_by(self, user: Reader) -> PathQuerySet:
        """Paths the reader may change: their own, and their teams' where they own the team or
        its owners allowed them."""
        if not user.is_authenticated:
            return self.none()
        owned_teams = Membership.objects.filter(user=user, role="owner").values("team_id")
        member_teams = _teams_of(user)
        return self.filter(
            Q(team__isnull=True, user=user)
            | Q(team__in=owned_teams)
            | Q(team__in=member_teams, editors=user)
        ).distinct()
