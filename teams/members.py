"""A team's members at any size: a summary for the team's page and a paginated list.

The team's page must cost the same for 3 members and for 300, so it shows counts and a link;
the full list lives on its own page, one page of members at a time.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.paginator import Page, Paginator
from django.db.models import Count, Q, QuerySet

from .models import Membership, Team

MEMBERS_PAGE_SIZE = 50


@dataclass(frozen=True)
class MemberSummary:
    total: int
    owners: int

    @property
    def members(self) -> int:
        return self.total - self.owners


def member_summary(team: Team) -> MemberSummary:
    """How many members and owners `team` has: one aggregate over its memberships' index."""
    counts = Membership.objects.filter(team=team).aggregate(
        total=Count("pk"), owners=Count("pk", filter=Q(role=Membership.Role.OWNER))
    )
    return MemberSummary(total=counts["total"], owners=counts["owners"])


def ordered_memberships(team: Team) -> QuerySet[Membership]:
    """Owners first, then by email; the primary key last so every page boundary is stable."""
    return (
        Membership.objects.filter(team=team)
        .select_related("user")
        .order_by("-role", "user__email", "pk")
    )


def members_page(team: Team, number: str | None) -> Page:
    """One page of `team`'s members; a missing or bad page number gives the nearest page."""
    return Paginator(ordered_memberships(team), MEMBERS_PAGE_SIZE).get_page(number)
