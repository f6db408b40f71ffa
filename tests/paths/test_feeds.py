"""A public path's Atom feed of changes, and public paths in the sitemap; nothing else."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import User
from paths.models import PathChange

from .follow_helpers import DETAIL_URLS, make_path, sources, team_of

pytestmark = [pytest.mark.django_db, pytest.mark.urls(DETAIL_URLS)]


def test_the_feed_lists_changes_newest_first(client: Client, other_reader: User) -> None:
    path = make_path(other_reader, sources(1), title="Public plan")
    now = timezone.now()
    PathChange.objects.create(
        path=path,
        actor=other_reader,
        action="added",
        summary="Added “Old”",
        at=now - timedelta(days=2),
    )
    PathChange.objects.create(
        path=path, actor=other_reader, action="moved", summary="Moved “New”", at=now
    )
    response = client.get(f"/paths/{path.key}/changes.atom")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/atom+xml")
    text = response.content.decode()
    assert "changes to “Public plan”" in text
    assert text.index("Moved “New”") < text.index("Added “Old”")


@pytest.mark.parametrize("visibility", ["private", "unlisted", "team"])
def test_only_a_public_path_has_a_feed(client: Client, other_reader: User, visibility: str) -> None:
    team = team_of(other_reader) if visibility == "team" else None
    path = make_path(other_reader, sources(1), visibility=visibility, team=team)
    client.force_login(other_reader)
    assert client.get(f"/paths/{path.key}/changes.atom").status_code == 404


def test_the_sitemap_names_public_paths_only(client: Client, other_reader: User) -> None:
    team = team_of(other_reader)
    public = make_path(other_reader, sources(1), title="Shown")
    hidden = [
        make_path(other_reader, sources(1), visibility="private"),
        make_path(other_reader, sources(1), visibility="unlisted"),
        make_path(other_reader, sources(1), visibility="team", team=team),
    ]
    index = client.get("/sitemap.xml").content.decode()
    assert "sitemap-paths.xml" in index
    text = client.get("/sitemap-paths.xml").content.decode()
    assert f"/paths/{public.key}/" in text
    for path in hidden:
        assert path.key not in text
