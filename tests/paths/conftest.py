from typing import Protocol

import pytest

from accounts.models import User
from paths.models import Path
from paths.services import add_section, add_step, create_path
from teams.models import Team
from tests.factories import SourceFactory, UserFactory
from tests.hints import Tiers


class MakePath(Protocol):
    def __call__(
        self,
        steps: int = 3,
        *,
        user: User | None = None,
        team: Team | None = None,
        visibility: str | None = None,
        sections: int = 1,
        title: str = "Kernels first",
    ) -> Path: ...


@pytest.fixture
def author(db: None) -> User:
    return UserFactory(email="author@example.com")


@pytest.fixture
def make_path(author: User, tiers: Tiers) -> MakePath:
    """A path with `steps` sources, optionally across `sections` sections."""

    def make(
        steps: int = 3,
        *,
        user: User | None = None,
        team: Team | None = None,
        visibility: str | None = None,
        sections: int = 1,
        title: str = "Kernels first",
    ) -> Path:
        path = create_path(user or author, title, team=team, visibility=visibility)
        extra = [add_section(path, user or author, f"Part {n}") for n in range(2, sections + 1)]
        parts = [path.sections.order_by("position").first(), *extra]
        sources = SourceFactory.create_batch(steps, tier=tiers["core"])
        for index, source in enumerate(sources):
            add_step(path, user or author, source, section=parts[index % len(parts)], log=False)
        path.refresh_from_db()
        return path

    return make
