"""Who sees which team's notes and activity, on every page, partial and export that shows them."""

from datetime import timedelta
from typing import TypedDict

import pytest
from django.test import Client
from django.utils import timezone
from pytest_django import DjangoCaptureOnCommitCallbacks

from accounts.models import User
from catalog.models import Source
from library.services import set_status
from notes.models import Note
from teams import services
from teams.models import Session, Team
from tests.factories import NoteFactory, UserFactory
from tests.hints import SmallCatalog

pytestmark = pytest.mark.django_db
VIEWERS = ["in_a", "in_b", "in_both", "in_none", "anonymous"]
SEES_A = {"in_a", "in_both"}
SEES_B = {"in_b", "in_both"}


class World(TypedDict):
    a: Team
    b: Team
    people: dict[str, User]
    flash: Source


@pytest.fixture
def world(
    small_catalog: SmallCatalog,
    fresh_cache: None,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> World:
    with django_capture_on_commit_callbacks(execute=True):
        author_a = UserFactory(email="ann@example.com", display_name="AnnOfA")
        author_b = UserFactory(email="bo@example.com", display_name="BoOfB")
        a = services.create_team(name="Alpha", owner=author_a)
        b = services.create_team(name="Beta", owner=author_b)
        people = {name: UserFactory(email=f"{name}@example.com") for name in VIEWERS[:4]}
        for name, teams in [("in_a", [a]), ("in_b", [b]), ("in_both", [a, b])]:
            for team in teams:
                services.Membership.objects.create(team=team, user=people[name])
        flash = small_catalog["flash"]
        step = small_catalog["path"][0]
        NoteFactory(user=author_a, source=flash, body="alpha-secret", visibility="team", team=a)
        NoteFactory(user=author_b, source=flash, body="beta-secret", visibility="team", team=b)
        for author in (author_a, author_b):
            set_status(user=author, source=flash, status="read")
            set_status(user=author, source=step, status="read")
        meet = Session.objects.create(
            team=a, title="AlphaMeet", starts_at=timezone.now() + timedelta(days=2)
        )
        meet.sources.add(flash)
    return {"a": a, "b": b, "people": people, "flash": flash}


def client_for(world: World, viewer: str) -> Client:
    client = Client()
    if viewer != "anonymous":
        client.force_login(world["people"][viewer])
    return client


def shows(client: Client, url: str, text: str) -> bool:
    return text in client.get(url).content.decode()


@pytest.mark.parametrize("viewer", VIEWERS)
def test_each_viewer_sees_exactly_their_teams(world: World, viewer: str) -> None:
    client = client_for(world, viewer)
    flash = world["flash"].get_absolute_url()
    note_a = Note.objects.get(body="alpha-secret")
    pages = {
        "source page": (flash, "alpha-secret", "beta-secret"),
        "source activity": (flash, "AnnOfA", "BoOfB"),
        "list page": ("/lists/wafer/", "Alpha: 1 teammate", "Beta: 1 teammate"),
        "path page": ("/tiers/start-here/", "Alpha: 1 teammate", "Beta: 1 teammate"),
        "team notes": ("/notes/team/", "alpha-secret", "beta-secret"),
        "home": ("/", "AlphaMeet", "never-shown"),
    }
    for name, (url, of_a, of_b) in pages.items():
        assert shows(client, url, of_a) == (viewer in SEES_A), name
        if of_b != "never-shown":
            assert shows(client, url, of_b) == (viewer in SEES_B), name
    partial = client.get(f"/notes/{note_a.pk}/", headers={"HX-Request": "true"})
    assert ("alpha-secret" in partial.content.decode()) == (viewer in SEES_A)
    for export in ("/library/notes/export.md", "/library/notes/export.json"):
        # Exports hold the reader's own notes alone, never a teammate's.
        assert "alpha-secret" not in client.get(export).content.decode()


@pytest.mark.parametrize("viewer", VIEWERS)
def test_team_urls_are_404_for_non_members(world: World, viewer: str) -> None:
    client = client_for(world, viewer)
    a = world["a"]
    session = a.sessions.get()
    urls = [a.get_absolute_url(), f"/teams/{a.slug}/sessions/{session.pk}/"]
    for url in urls:
        response = client.get(url)
        if viewer in SEES_A:
            assert response.status_code == 200 and "alpha-secret" in response.content.decode()
        elif viewer == "anonymous":
            assert response.status_code == 302
        else:
            assert response.status_code == 404
    feed = client.get(f"/teams/{a.slug}/calendar/{a.calendar_token}.ics")
    assert feed.status_code == 200 and b"AlphaMeet" in feed.content  # the token is the key
    assert client.get(f"/teams/{a.slug}/calendar/wrong.ics").status_code == 404
    team_filter = client.get(f"/notes/team/?team={a.slug}")
    assert team_filter.status_code == {"in_a": 200, "in_both": 200, "anonymous": 302}.get(
        viewer, 404
    )


def test_one_teams_note_keeps_another_teams_pages_cached(
    world: World, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    client = client_for(world, "in_b")
    flash = world["flash"].get_absolute_url()
    assert client.get(flash)["X-Page-Cache"] == "miss"
    assert client.get(flash)["X-Page-Cache"] == "hit"
    with django_capture_on_commit_callbacks(execute=True):
        NoteFactory(
            user=world["people"]["in_a"],
            source=world["flash"],
            body="alpha-more",
            visibility="team",
            team=world["a"],
        )
    assert client.get(flash)["X-Page-Cache"] == "hit"
    both = client_for(world, "in_both")
    both.get(flash)
    with django_capture_on_commit_callbacks(execute=True):
        NoteFactory(
            user=world["people"]["in_a"],
            source=world["flash"],
            body="alpha-again",
            visibility="team",
            team=world["a"],
        )
    assert "alpha-again" in both.get(flash).content.decode()


def test_a_removed_member_loses_the_team_on_the_next_request_and_keeps_their_notes(
    world: World, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    member = world["people"]["in_a"]
    client = client_for(world, "in_a")
    flash = world["flash"].get_absolute_url()
    with django_capture_on_commit_callbacks(execute=True):
        own = NoteFactory(
            user=member, source=world["flash"], body="my-shared", visibility="team", team=world["a"]
        )
    for url in (flash, "/notes/team/", "/lists/wafer/"):
        client.get(url)
        assert client.get(url)["X-Page-Cache"] == "hit"
    owner = world["a"].memberships.get(role="owner").user
    with django_capture_on_commit_callbacks(execute=True):
        services.remove_member(team=world["a"], by=owner, user=member)
    page = client.get(flash).content.decode()
    assert "alpha-secret" not in page and "AnnOfA" not in page and "my-shared" in page
    assert "alpha-secret" not in client.get("/notes/team/").content.decode()
    assert "Alpha: 1 teammate" not in client.get("/lists/wafer/").content.decode()
    own.refresh_from_db()
    assert (own.visibility, own.team) == ("private", None)
    assert client.get(f"/teams/{world['a'].slug}/").status_code == 404


def test_the_note_form_takes_private_or_one_of_the_authors_team_slugs(world: World) -> None:
    client = client_for(world, "in_a")
    url = f"{world['flash'].get_absolute_url()}notes/new/"
    response = client.post(url, {"body": "x", "visibility": world["b"].slug})
    assert response.status_code == 200 and not Note.objects.filter(body="x").exists()
    client.post(url, {"body": "y", "visibility": world["a"].slug})
    assert Note.objects.get(body="y").team == world["a"]
    client.post(url, {"body": "z", "visibility": "private"})
    assert Note.objects.get(body="z").team is None
