"""The viewer matrix over the surfaces that follow, export and syndicate paths: each path's
visibility against each kind of viewer. Nothing shows a path to someone the one rule hides it
from, and nothing that lists paths (sitemap, feeds) names any but public ones."""

import pytest
from django.test import Client

from accounts.models import User
from paths.models import Path
from teams.models import Membership

from .follow_helpers import DETAIL_URLS, UserFactory, make_path, sources, team_of

pytestmark = [pytest.mark.django_db, pytest.mark.urls(DETAIL_URLS)]

VISIBILITIES = ["private", "team", "unlisted", "public"]
VIEWERS = ["anonymous", "author", "other", "member", "former member"]
# Who may open a path of each visibility (and so export or follow it).
SEES = {
    "private": {"author"},
    "team": {"author", "member"},
    "unlisted": set(VIEWERS),
    "public": set(VIEWERS),
}
EXPORTS = ["export.md", "export.bib", "export.json"]


@pytest.fixture
def world() -> tuple[dict[str, Path], dict[str, User | None]]:
    author, member, former, other = (UserFactory() for _ in range(4))
    team = team_of(author, member, former)
    Membership.objects.filter(team=team, user=former).delete()
    paths = {
        visibility: make_path(
            author,
            sources(1, prefix=visibility),
            visibility=visibility,
            team=team if visibility == "team" else None,
            title=f"Secret {visibility} title",
        )
        for visibility in VISIBILITIES
    }
    viewers: dict[str, User | None] = {
        "anonymous": None,
        "author": author,
        "other": other,
        "member": member,
    }
    viewers["former member"] = former
    return paths, viewers


def as_viewer(client: Client, user: User | None) -> None:
    client.logout()
    if user is not None:
        client.force_login(user)


@pytest.mark.parametrize("viewer", VIEWERS)
@pytest.mark.parametrize("visibility", VISIBILITIES)
def test_exports_follow_the_one_rule(
    client: Client,
    world: tuple[dict[str, Path], dict[str, User | None]],
    visibility: str,
    viewer: str,
) -> None:
    paths, viewers = world
    path = paths[visibility]
    as_viewer(client, viewers[viewer])
    for suffix in EXPORTS:
        response = client.get(f"/paths/{path.key}/{suffix}")
        if viewer in SEES[visibility]:
            assert response.status_code == 200, suffix
        else:
            assert response.status_code == 404, suffix
            assert path.title.encode() not in response.content


@pytest.mark.parametrize("viewer", VIEWERS)
@pytest.mark.parametrize("visibility", VISIBILITIES)
def test_the_feed_is_for_public_paths_alone(
    client: Client,
    world: tuple[dict[str, Path], dict[str, User | None]],
    visibility: str,
    viewer: str,
) -> None:
    paths, viewers = world
    as_viewer(client, viewers[viewer])
    response = client.get(f"/paths/{paths[visibility].key}/changes.atom")
    assert response.status_code == (200 if visibility == "public" else 404)


@pytest.mark.parametrize("viewer", VIEWERS)
@pytest.mark.parametrize("visibility", VISIBILITIES)
def test_following_follows_the_one_rule(
    client: Client,
    world: tuple[dict[str, Path], dict[str, User | None]],
    visibility: str,
    viewer: str,
) -> None:
    paths, viewers = world
    path = paths[visibility]
    as_viewer(client, viewers[viewer])
    response = client.post(f"/paths/{path.key}/follow/")
    if viewer == "anonymous":
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    elif viewer in SEES[visibility]:
        assert response.status_code == 302 and path.follows.exists()
    else:
        assert response.status_code == 404 and not path.follows.exists()


@pytest.mark.parametrize("viewer", VIEWERS)
def test_the_sitemap_names_public_paths_alone(
    client: Client, world: tuple[dict[str, Path], dict[str, User | None]], viewer: str
) -> None:
    paths, viewers = world
    as_viewer(client, viewers[viewer])
    text = client.get("/sitemap-paths.xml").content.decode()
    assert paths["public"].key in text
    for visibility in ("private", "team", "unlisted"):
        assert paths[visibility].key not in text


@pytest.mark.parametrize("viewer", VIEWERS)
def test_a_teams_step_table_is_for_its_members(
    client: Client, world: tuple[dict[str, Path], dict[str, User | None]], viewer: str
) -> None:
    paths, viewers = world
    path = paths["team"]
    path.follows.create(team=path.team)
    as_viewer(client, viewers[viewer])
    assert path.team is not None
    response = client.get(f"/paths/{path.key}/teams/{path.team.slug}/progress/")
    if viewer in {"author", "member"}:
        assert response.status_code == 200
    elif viewer == "anonymous":
        assert response.status_code == 302
    else:
        assert response.status_code == 404
        assert path.title.encode() not in response.content
