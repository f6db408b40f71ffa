"""Paths to follow, built directly (the helpers that build paths through forms are tested on
their own): a path of given sources, readers' reads, teams."""

from __future__ import annotations

from collections.abc import Sequence

from accounts.models import User
from catalog.models import Source
from library.models import Bookmark
from paths.models import Path, PathFollow, PathSection, PathStep
from teams.models import Membership, Team
from tests.factories import SourceFactory, UserFactory

DETAIL_URLS = "tests.paths.urls_with_detail"


def make_path(
    user: User,
    sources: list[Source],
    *,
    visibility: str = "public",
    team: Team | None = None,
    title: str = "Kernels path",
    notes: Sequence[str] = (),
) -> Path:
    path = Path.objects.create(title=title, user=user, team=team, visibility=visibility)
    section = PathSection.objects.create(path=path, title="Basics", position=0)
    padded = list(notes) + [""] * len(sources)
    PathStep.objects.bulk_create(
        PathStep(path=path, section=section, source=source, position=n, note=padded[n])
        for n, source in enumerate(sources)
    )
    return path


def sources(count: int, prefix: str = "Step") -> list[Source]:
    return [SourceFactory(title=f"{prefix} {n:03}") for n in range(count)]


def read(user: User, *read_sources: Source, status: str = "read") -> None:
    Bookmark.objects.bulk_create(
        (Bookmark(user=user, source=source, status=status) for source in read_sources),
        update_conflicts=True,
        unique_fields=["user", "source"],
        update_fields=["status"],
    )


def team_of(owner: User, *members: User, slug: str = "kernels") -> Team:
    team = Team.objects.create(slug=slug, name=slug.title())
    Membership.objects.create(team=team, user=owner, role="owner")
    for member in members:
        Membership.objects.create(team=team, user=member)
    return team


def follow(path: Path, *, user: User | None = None, team: Team | None = None) -> PathFollow:
    return PathFollow.objects.create(path=path, user=user, team=team)


__all__ = ["DETAIL_URLS", "UserFactory", "follow", "make_path", "read", "sources", "team_of"]
