"""/lists/ lists the public paths readers and teams share, apart from the curated lists; no
private, team or unlisted path, in a constant number of queries."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from pytest_django import DjangoCaptureOnCommitCallbacks, Settings

from accounts.models import User
from paths.services import add_step, create_path
from tests.factories import SourceFactory, UserFactory, join_team
from tests.hints import SmallCatalog, Tiers
from tests.paths.detail_stub import path_page  # noqa: F401

pytestmark = pytest.mark.usefixtures("path_page", "render_every_time")


def test_public_paths_are_listed_with_author_and_steps_apart_from_the_lists(
    client: Client, small_catalog: SmallCatalog
) -> None:
    author = UserFactory(email="ada@example.com", display_name="Ada")
    shared = create_path(author, "Kernels for newcomers", visibility="public")
    add_step(shared, author, small_catalog["flash"])
    team = join_team(author, slug="infra")
    create_path(author, "Team public", team=team, visibility="public")
    for visibility in ("private", "unlisted"):
        create_path(author, f"Hidden {visibility}", visibility=visibility)
    create_path(author, "Hidden team", team=team, visibility="team")

    html = client.get("/lists/").content.decode()
    curated, community = html.split('id="community-heading"')
    assert "Primary sources" in curated and "Kernels for newcomers" not in curated
    assert "Kernels for newcomers" in community and "1 step" in community
    assert "By Ada" in community and "By Infra" in community
    assert shared.get_absolute_url() in community
    assert "Hidden" not in html
    assert "ada@example.com" not in html


def test_a_signed_in_reader_does_not_see_their_private_paths_there(
    signed_in: Client, reader: User
) -> None:
    create_path(reader, "My own private", visibility="private")
    assert "My own private" not in signed_in.get("/lists/").content.decode()


def count_queries(client: Client) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/lists/").status_code == 200
    return len(queries)


def test_the_page_costs_the_same_at_one_and_thirty_paths(client: Client, tiers: Tiers) -> None:
    source = SourceFactory(tier=tiers["core"])

    def publish(count: int) -> None:
        for n in range(count):
            owner = UserFactory()
            team = join_team(owner, slug=f"team-{n}-{count}") if n % 2 else None
            path = create_path(owner, f"Path {n}", team=team, visibility="public")
            add_step(path, owner, source)

    publish(1)
    one = count_queries(client)
    publish(29)
    thirty = count_queries(client)
    assert one == thirty


def test_a_path_made_public_replaces_the_cached_page(
    client: Client,
    settings: Settings,
    fresh_cache: None,
    reader: User,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    settings.CATALOG_PAGE_CACHE = True
    path = create_path(reader, "Soon shared", visibility="private")
    client.get("/lists/")
    assert "Soon shared" not in client.get("/lists/").content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        path.visibility = "public"
        path.save()
    assert "Soon shared" in client.get("/lists/").content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        path.visibility = "private"
        path.save()
    assert "Soon shared" not in client.get("/lists/").content.decode()
