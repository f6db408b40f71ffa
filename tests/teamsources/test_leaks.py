"""The viewer matrix over every surface a team's own source could show on: its members see it,
anyone else (a visitor, a reader of another team, a former member) gets 404 or a page that
never names it. Run with the page cache on (each page asked twice) and off."""

from collections.abc import Iterator
from typing import cast

import pytest
from django.http import FileResponse
from django.test import Client
from pytest_django import Settings

from accounts.models import User
from catalog.models import Source
from library.models import Bookmark
from teams.models import Membership, Team
from teamsources.models import TeamSource
from tests.hints import present

from .conftest import add, markdown

pytestmark = pytest.mark.django_db

SECRET = "Zanzibar design notes"
# "outsider" owns another team; "member" added the source; "teammate" is in the team too.
VIEWERS = ["anonymous", "outsider", "former member", "member", "owner", "teammate"]
MEMBERS = {"member", "owner", "teammate"}
# Who views, by role; "anonymous" is nobody signed in.
Viewers = dict[str, User | None]
World = tuple[TeamSource, Viewers]


@pytest.fixture(params=["cached", "uncached"])
def cache_mode(request: pytest.FixtureRequest, settings: Settings, fresh_cache: None) -> str:
    settings.CATALOG_PAGE_CACHE = request.param == "cached"
    return request.param


@pytest.fixture
def world(
    client: Client, team: Team, member: User, owner: User, outsider: User, other_team: Team
) -> World:
    from tests.factories import UserFactory

    former = UserFactory(email="former@example.com")
    Membership.objects.create(team=team, user=former)
    teammate = UserFactory(email="teammate@example.com")
    Membership.objects.create(team=team, user=teammate)
    client.force_login(member)
    add(client, team, title=SECRET, url="http://wiki.corp.internal/zanzibar", file=markdown())
    row = TeamSource.objects.select_related("source").get()
    client.logout()
    viewers = {
        "anonymous": None,
        "outsider": outsider,
        "member": member,
        "former member": former,
        "owner": owner,
        "teammate": teammate,
    }
    return row, viewers


def _as(client: Client, user: User | None) -> None:
    client.logout()
    if user is not None:
        client.force_login(user)


def _remove_former(team: Team, viewers: Viewers) -> None:
    from django.test import TestCase

    # The page cache's versions move when the removal commits, as in production.
    with TestCase.captureOnCommitCallbacks(execute=True):
        Membership.objects.filter(team=team, user=viewers["former member"]).delete()


def detail_urls(row: TeamSource) -> list[str]:
    slug, team = row.source.slug, row.team.slug
    return [
        f"/sources/{slug}/",
        f"/sources/{slug}/discussion/",
        f"/sources/{slug}/notes/new/",
        f"/sources/{slug}/cite/",
        f"/sources/{slug}/cite.bib",
        f"/teams/{team}/sources/",
        f"/teams/{team}/sources/{row.pk}/file/",
        f"/teams/{team}/sources/{row.pk}/propose/",
        *manage_urls(row),
    ]


def manage_urls(row: TeamSource) -> list[str]:
    team = row.team.slug
    return [f"/teams/{team}/sources/{row.pk}/edit/", f"/teams/{team}/sources/{row.pk}/delete/"]


LISTINGS = [
    "/",
    "/sources/",
    "/sources/?q=zanzibar",
    "/sources/?q=Zanzibar+design",
    "/sources/cite.bib?q=zanzibar",
    "/catalog.json",
    "/feeds/sources/",
    "/sitemap.xml",
    "/sitemap-sources.xml",
    "/tiers/further-reading/",
    "/changes/",
    "/library/for-you/",
    "/library/export.json",
]


@pytest.mark.parametrize("viewer", VIEWERS)
def test_the_source_and_its_file_are_404_to_everyone_but_members(
    client: Client, world: World, team: Team, viewer: str, cache_mode: str
) -> None:
    row, viewers = world
    # The former member saw the pages while in the team: removal cuts access at once.
    _as(client, viewers["former member"])
    assert client.get(f"/sources/{row.source.slug}/").status_code == 200
    _remove_former(team, viewers)
    _as(client, viewers[viewer])
    for url in detail_urls(row):
        for _ in range(2):  # the second answer may come from the page cache
            response = client.get(url)
            if viewer in MEMBERS:
                assert response.status_code in {200, 302, 404}, url
            elif viewers[viewer] is None and response.status_code == 302:
                # Sign in first, as for every team page or note form, whatever the slug.
                assert response["Location"].startswith("/accounts/login/"), url
                assert SECRET.encode() not in response.content
            else:
                assert response.status_code == 404, url
                assert SECRET.encode() not in response.content, url


@pytest.mark.parametrize("viewer", VIEWERS)
def test_only_its_adder_and_the_owners_edit_or_delete_it(
    client: Client, world: World, team: Team, viewer: str, cache_mode: str
) -> None:
    row, viewers = world
    former = present(viewers["former member"])
    # A source the former member added while in the team: theirs to manage, until removed.
    _as(client, former)
    add(client, team, title="Former's notes", url="http://wiki.corp.internal/former")
    theirs = TeamSource.objects.select_related("source", "team").get(added_by=former)
    assert client.get(manage_urls(theirs)[0]).status_code == 200
    _remove_former(team, viewers)
    _as(client, viewers[viewer])
    for managed in (row, theirs):
        # Who may edit and delete it: the member who added it and the team's owners.
        allowed = viewer == "owner" or (viewer == "member" and managed == row)
        for url in manage_urls(managed):
            for _ in range(2):  # the second answer may come from the page cache
                response = client.get(url)
                assert response.status_code == (200 if allowed else 404), url
                if not allowed:
                    assert managed.source.title.encode() not in response.content, url
        if not allowed:
            # A POST is refused as the GET is: nothing changes, nothing goes.
            assert client.post(manage_urls(managed)[1]).status_code == 404
            data = {"title": "Taken over", "url": "", "kind": "documentation"}
            assert client.post(manage_urls(managed)[0], data).status_code == 404
    assert TeamSource.objects.count() == 2
    assert not Source.all_objects.filter(title="Taken over").exists()


@pytest.mark.parametrize("viewer", VIEWERS)
def test_no_listing_names_it_but_a_members_search(
    client: Client, world: World, team: Team, viewer: str, cache_mode: str
) -> None:
    _, viewers = world
    _as(client, viewers["former member"])
    client.get("/sources/?q=zanzibar")
    _remove_former(team, viewers)
    _as(client, viewers[viewer])
    for url in LISTINGS:
        for _ in range(2):
            response = client.get(url)
            shown = SECRET.encode() in response.content
            expected = viewer in MEMBERS and url.startswith("/sources/?q=")
            assert shown == expected, url


def test_members_see_it_labelled_in_search_and_on_its_page(
    client: Client, world: World, team: Team
) -> None:
    row, viewers = world
    _as(client, viewers["member"])
    page = client.get("/sources/?q=zanzibar").content.decode()
    results = page.split('<ol id="results"', 1)[1].split("</ol>", 1)[0]
    assert f'href="/sources/{row.source.slug}/"' in results
    assert f"Your team's · {team.name}" in results
    # The file's text is searched too.
    assert SECRET in client.get("/sources/?q=outage").content.decode()
    detail = client.get(f"/sources/{row.source.slug}/").content.decode()
    assert SECRET in detail and "Your team's · " in detail
    assert f"/teams/{team.slug}/sources/{row.pk}/file/" in detail


def test_the_file_is_a_checked_attachment(client: Client, world: World) -> None:
    row, viewers = world
    _as(client, viewers["member"])
    response = client.get(f"/teams/{row.team.slug}/sources/{row.pk}/file/")
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment")
    assert response["X-Content-Type-Options"] == "nosniff"
    assert "no-store" in response["Cache-Control"]
    assert isinstance(response, FileResponse)
    assert b"zanzibar outage" in b"".join(cast(Iterator[bytes], response.streaming_content))


def test_members_bookmark_note_and_discuss_it_others_cannot(
    client: Client, world: World, team: Team, outsider: User
) -> None:
    row, viewers = world
    slug = row.source.slug
    _as(client, viewers["member"])
    response = client.post(f"/library/bookmarks/{slug}/", {"status": "to_read"})
    assert response.status_code == 302
    assert Bookmark.objects.filter(user=viewers["member"], source=row.source).exists()
    response = client.post(
        f"/sources/{slug}/notes/new/", {"body": "Read section 2", "visibility": team.slug}
    )
    assert response.status_code == 302
    response = client.post(
        f"/sources/{slug}/discussion/", {"title": "Why noon?", "body": "", "team": team.slug}
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    _as(client, outsider)
    assert client.post(f"/library/bookmarks/{slug}/", {"status": "to_read"}).status_code == 404
    assert not Bookmark.objects.filter(user=outsider).exists()


def test_a_note_on_it_cannot_be_shared_with_another_team(
    client: Client, world: World, team: Team, other_team: Team
) -> None:
    row, viewers = world
    member = present(viewers["member"])
    Membership.objects.create(team=other_team, user=member)
    _as(client, member)
    response = client.post(
        f"/sources/{row.source.slug}/notes/new/",
        {"body": "Leaky", "visibility": other_team.slug},
    )
    assert response.status_code in {200, 400}
    assert "shared with that team only" in response.content.decode()
    from notes.models import Note

    assert not Note.objects.filter(body="Leaky").exists()


def test_the_default_manager_and_search_never_hold_it(world: World) -> None:
    row, _ = world
    assert not Source.objects.filter(pk=row.source_id).exists()
    assert Source.all_objects.filter(pk=row.source_id).exists()
    from django.db import connection

    from search.models import SearchEntry

    # The search entry table is PostgreSQL's alone; SQLite's search reads the sources' rows.
    if connection.vendor == "postgresql":
        assert not SearchEntry.objects.filter(source_id=row.source_id).exists()


def test_a_thread_on_it_cannot_start_in_another_team(
    client: Client, world: World, other_team: Team
) -> None:
    row, viewers = world
    Membership.objects.create(team=other_team, user=present(viewers["member"]))
    _as(client, viewers["member"])
    response = client.post(
        f"/sources/{row.source.slug}/discussion/", {"title": "Leaky", "team": other_team.slug}
    )
    assert response.status_code == 400
    from discussions.models import Thread

    assert not Thread.objects.exists()


def test_leaving_the_team_takes_it_out_of_the_readers_library_and_notes(
    client: Client, world: World, team: Team
) -> None:
    row, viewers = world
    former = viewers["former member"]
    _as(client, former)
    client.post(f"/library/bookmarks/{row.source.slug}/", {"status": "reading"})
    client.post(f"/sources/{row.source.slug}/notes/new/", {"body": "Mine", "visibility": "private"})
    assert SECRET in client.get("/library/").content.decode()
    assert SECRET in client.get("/library/notes/").content.decode()
    _remove_former(team, viewers)
    for url in (
        "/library/",
        "/library/notes/",
        "/library/notes/export.md",
        "/library/notes/export.json",
        "/library/export.csv",
    ):
        assert SECRET not in client.get(url).content.decode(), url


def test_another_teams_page_does_not_show_a_shared_members_reading(
    client: Client, world: World, other_team: Team, outsider: User
) -> None:
    row, viewers = world
    member = present(viewers["member"])
    Membership.objects.create(team=other_team, user=member)
    _as(client, member)
    client.post(f"/library/bookmarks/{row.source.slug}/", {"status": "reading"})
    _as(client, outsider)
    page = client.get(f"/teams/{other_team.slug}/").content.decode()
    assert SECRET not in page
