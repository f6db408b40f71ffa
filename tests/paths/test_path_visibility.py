"""Who sees a path and who may change it, for every visibility and every kind of viewer, on the
path's page and every address that edits it. A path hidden from a viewer is 404 and its title
appears nowhere in the answer."""

from typing import TypedDict

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from paths.models import Path
from paths.services import add_section
from teams.models import Membership, Team
from tests.factories import UserFactory, join_team
from tests.hints import present
from tests.paths.conftest import MakePath

pytestmark = pytest.mark.django_db

TITLE = "Secret onboarding path"
VIEWERS = [
    "anonymous",
    "author",
    "other reader",
    "team member",
    "team owner",
    "former member",
    "other team",
]
# Who may see a path of each visibility (personal paths for "private", the team's otherwise).
SEES = {
    "private": {"author"},
    "team": {"author", "team member", "team owner"},
    "unlisted": set(VIEWERS),
    "public": set(VIEWERS),
}
# Who may edit: the author of a personal path; the owner and the allowed author of a team's.
EDITS = {
    "private": {"author"},
    "team": {"author", "team owner"},
    "unlisted": {"author", "team owner"},
    "public": {"author", "team owner"},
}


class World(TypedDict):
    team: Team
    users: dict[str, User | None]
    former: User


@pytest.fixture
def world(make_path: MakePath, author: User) -> World:
    owner = UserFactory(email="owner@example.com")
    member = UserFactory(email="member@example.com")
    former = UserFactory(email="former@example.com")
    stranger = UserFactory(email="stranger@example.com")
    outsider = UserFactory(email="outsider@example.com")
    team = join_team(author, owner, member, former, slug="inference")
    Membership.objects.filter(team=team, user=owner).update(role="owner")
    join_team(outsider, slug="another-team")
    users = {
        "anonymous": None,
        "author": author,
        "other reader": stranger,
        "team member": member,
        "team owner": owner,
        "former member": former,
        "other team": outsider,
    }
    return {"team": team, "users": users, "former": former}


def make(make_path: MakePath, world: World, author: User, visibility: str) -> Path:
    team = None if visibility == "private" else world["team"]
    path = make_path(2, team=team, visibility=visibility, title=TITLE)
    if team:
        path.editors.add(author, world["former"])
        add_section(path, author, "Advanced")
    Membership.objects.filter(user=world["former"], team=world["team"]).delete()
    return path


def edit_requests(path: Path) -> list[tuple[str, str, dict[str, str]]]:
    step = present(path.steps.order_by("position").first())
    section = present(path.sections.order_by("position").first())
    key = path.key
    return [
        ("get", reverse("paths:edit", args=[key]), {}),
        ("post", reverse("paths:edit", args=[key]), {"title": "x", "visibility": "public"}),
        ("post", reverse("paths:add-step", args=[key]), {"source": "nothing at all"}),
        ("post", reverse("paths:steps-action", args=[key]), {"down": str(step.pk)}),
        ("post", reverse("paths:move-to", args=[key, step.pk]), {"place": "2"}),
        ("get", reverse("paths:step-edit", args=[key, step.pk]), {}),
        ("post", reverse("paths:step-edit", args=[key, step.pk]), {"note": "n"}),
        ("post", reverse("paths:add-section", args=[key]), {"section-title": "New"}),
        ("post", reverse("paths:section", args=[key, section.pk]), {"title": "Renamed"}),
        ("get", reverse("paths:delete", args=[key]), {}),
        (
            "post",
            reverse("paths:add-source"),
            {"source": step.source.slug, "to": key},
        ),
    ]


@pytest.mark.parametrize("visibility", list(SEES))
@pytest.mark.parametrize("viewer", VIEWERS)
def test_the_viewer_matrix(
    client: Client, make_path: MakePath, world: World, author: User, visibility: str, viewer: str
) -> None:
    path = make(make_path, world, author, visibility)
    user = world["users"][viewer]
    if user:
        client.force_login(user)

    page = client.get(path.get_absolute_url())
    if viewer in SEES[visibility]:
        assert page.status_code == 200
        assert TITLE in page.content.decode()
    else:
        assert page.status_code == 404
        assert TITLE not in page.content.decode()

    for method, url, data in edit_requests(path):
        response = getattr(client, method)(url, data)
        body = response.content.decode()
        if user is None:
            assert response.status_code == 302 and "/accounts/login/" in response["Location"]
        elif viewer in EDITS[visibility]:
            assert response.status_code in {200, 302, 400}, (method, url, response.status_code)
        elif url == reverse("paths:add-source"):
            # Not a path they may change: sent back to the source, nothing added, nothing named.
            assert response.status_code == 302
            assert path.key not in response["Location"]
        else:
            assert response.status_code == 404, (method, url)
        assert TITLE not in body or viewer in SEES[visibility]
    assert path.steps.count() == 2 or viewer in EDITS[visibility]


def test_a_member_who_leaves_loses_the_teams_paths_at_once(
    client: Client, make_path: MakePath, author: User
) -> None:
    member = UserFactory()
    team = join_team(author, member, slug="kernels")
    path = make_path(1, team=team, title=TITLE)
    path.editors.add(member)
    client.force_login(member)
    assert client.get(path.get_absolute_url()).status_code == 200
    assert TITLE in client.get(reverse("paths:index")).content.decode()
    Membership.objects.filter(team=team, user=member).delete()
    assert client.get(path.get_absolute_url()).status_code == 404
    assert client.get(reverse("paths:edit", args=[path.key])).status_code == 404
    assert TITLE not in client.get(reverse("paths:index")).content.decode()
