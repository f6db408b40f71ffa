"""The viewer matrix over a team's path holding the team's own source, and over the paths that
came from it (a public fork, a path that held it and was shared afterwards): the source's
title shows to the team's members alone, on the page, the exports, the feed, the upstream
changes, the history and the reader's progress. The pages cost the same whatever the number
of team-only steps."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from pytest_django import DjangoCaptureOnCommitCallbacks, Settings

from accounts.models import User
from catalog.models import Source
from library.models import Bookmark
from paths.changes import update_details
from paths.forking import fork_path
from paths.models import Path, PathFollow
from paths.services import add_step, create_path, remove_step
from teams import services as teams
from teams.models import Team
from tests.factories import SourceFactory, UserFactory
from tests.hints import Tiers

from .test_paths import SECRET, team_source

pytestmark = pytest.mark.django_db

VIEWERS = ["member", "other team's member", "reader outside", "anonymous"]
SURFACES = ["", "export.md", "export.bib", "export.json", "changes.atom"]
World = dict[str, Path]


@pytest.fixture
def world(team: Team, owner: User, member: User, tiers: Tiers) -> World:
    secret = team_source(team, owner)
    public = SourceFactory(title="Attention Is All You Need", tier=tiers["core"])
    held = create_path(owner, "Team plan", team=team)
    add_step(held, owner, public)
    add_step(held, owner, secret)
    fork = fork_path(held, owner, team=None, visibility="public").path
    shared = create_path(owner, "Went public", team=team)
    add_step(shared, owner, secret)
    step = shared.steps.get()
    remove_step(shared, owner, step.pk)
    update_details(shared, owner, title="Went public", description="", visibility="public")
    return {"held": held, "fork": fork, "shared": shared}


@pytest.fixture
def viewers(member: User, outsider: User, other_team: Team) -> dict[str, User | None]:
    return {
        "member": member,
        "other team's member": outsider,
        "reader outside": UserFactory(email="reader@example.com"),
        "anonymous": None,
    }


def _get(client: Client, user: User | None, url: str) -> tuple[int, str]:
    client.logout()
    if user is not None:
        client.force_login(user)
    response = client.get(url)
    return response.status_code, response.content.decode()


@pytest.mark.parametrize("viewer", VIEWERS)
@pytest.mark.parametrize("surface", SURFACES)
def test_the_team_path_shows_the_team_source_to_members_alone(
    client: Client, world: World, viewers: dict[str, User | None], viewer: str, surface: str
) -> None:
    status, body = _get(client, viewers[viewer], f"/paths/{world['held'].key}/{surface}")
    if viewer == "member" and surface != "changes.atom":
        assert status == 200 and SECRET in body
    else:
        # Only a public path has a feed; nobody else learns the path exists.
        assert status == 404 and SECRET not in body


@pytest.mark.parametrize("viewer", VIEWERS)
@pytest.mark.parametrize("which", ["fork", "shared"])
@pytest.mark.parametrize("surface", [*SURFACES, "upstream/"])
def test_paths_seen_beyond_the_team_never_name_the_team_source(
    client: Client,
    world: World,
    viewers: dict[str, User | None],
    viewer: str,
    which: str,
    surface: str,
) -> None:
    if surface == "upstream/" and viewer == "anonymous":
        pytest.skip("the upstream page asks a visitor to sign in")
    status, body = _get(client, viewers[viewer], f"/paths/{world[which].key}/{surface}")
    assert status == 200 and SECRET not in body


def test_the_shared_paths_history_says_a_team_only_source_was_there(
    client: Client, world: World
) -> None:
    _, body = _get(client, None, world["shared"].get_absolute_url())
    assert "Added a team-only source" in body and "Removed a team-only source" in body
    _, feed = _get(client, None, reverse("paths:feed", args=[world["shared"].key]))
    assert "Added a team-only source" in feed


def test_a_members_progress_names_the_next_team_step_until_they_leave(
    client: Client,
    world: World,
    team: Team,
    member: User,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    held = world["held"]
    PathFollow.objects.create(path=held, user=member)
    first = held.steps.order_by("position").first()
    assert first is not None
    Bookmark.objects.create(user=member, source=first.source, status=Bookmark.Status.READ)
    _, body = _get(client, member, reverse("library:index"))
    assert f'Next: <a href="{Source.all_objects.get(title=SECRET).get_absolute_url()}' in body
    # The page cache's versions move when the departure commits, as in production.
    with django_capture_on_commit_callbacks(execute=True):
        teams.leave(team=team, user=member)
    _, after = _get(client, member, reverse("library:index"))
    assert SECRET not in after and "Team plan" not in after


def test_the_teams_progress_names_its_own_stalled_step(
    client: Client, world: World, team: Team, owner: User, member: User
) -> None:
    PathFollow.objects.create(path=world["held"], team=team)
    first = world["held"].steps.order_by("position").first()
    assert first is not None
    for user in (owner, member):
        Bookmark.objects.create(user=user, source=first.source, status=Bookmark.Status.READ)
    _, body = _get(client, member, team.get_absolute_url())
    assert SECRET in body


def _cost(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_the_pages_cost_the_same_at_one_and_five_team_steps(
    client: Client, team: Team, owner: User
) -> None:
    def costs(count: int) -> list[int]:
        path = create_path(owner, f"Plan {count}", team=team)
        for n in range(count):
            add_step(path, owner, team_source(team, owner, f"Internal note {count}-{n}"))
        urls = [f"/paths/{path.key}/{end}" for end in ["", "export.md", "export.bib"]]
        return [_cost(client, url) for url in urls]

    client.force_login(owner)
    costs(1)  # warm: the session and the site's per-process caches
    assert costs(1) == costs(5)


def test_the_source_page_costs_the_same_whatever_the_number_of_paths(
    client: Client, team: Team, owner: User, settings: Settings
) -> None:
    settings.CATALOG_PAGE_CACHE = False
    secret = team_source(team, owner)
    client.force_login(owner)
    create_path(owner, "Plan 0", team=team)
    _cost(client, secret.get_absolute_url())
    one = _cost(client, secret.get_absolute_url())
    for n in range(1, 6):
        create_path(owner, f"Plan {n}", team=team)
        create_path(owner, f"Mine {n}")
    assert _cost(client, secret.get_absolute_url()) == one
