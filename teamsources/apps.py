from collections.abc import Iterable
from typing import Any

from django.apps import AppConfig
from django.db.models import Q


class TeamSourcesConfig(AppConfig):
    name = "teamsources"
    verbose_name = "Team sources"

    def ready(self) -> None:
        from catalog.querysets import (
            register_private_audience,
            register_private_rule,
            register_private_team_rule,
        )
        from readinglist import pagecache

        # The catalog asks these who may see a private source; without them nobody may.
        register_private_rule(_members_see)
        register_private_audience(_owning_team)
        register_private_team_rule(_kept_by)
        # A team source shows on its team's pages only (the team page, its members' search
        # and source pages); the Source row itself is a catalog change.
        pagecache.register(
            self.get_model("TeamSource"), scope="team", teams=lambda row: [row.team_id]
        )


def _members_see(user: Any) -> Q:
    if not getattr(user, "is_authenticated", False):
        return Q(pk__in=[])
    from .models import TeamSource

    # A subquery rather than a join: joined, a source would come back once per member.
    return Q(pk__in=TeamSource.objects.of_member(user).values("source_id"))


def _owning_team(source: Any) -> Iterable[int]:
    from .models import TeamSource

    return TeamSource.objects.filter(source=source).values_list("team_id", flat=True)


def _kept_by(team_id: int) -> Q:
    from .models import TeamSource

    return Q(pk__in=TeamSource.objects.filter(team_id=team_id).values("source_id"))
