"""Deleting a team's own source: a page counts what goes with it (every reader's bookmarks,
notes, threads, path steps; the sessions it leaves), and its POST deletes them together in one
transaction, the stored file once that is committed."""

import pytest
from django.core.files.storage import default_storage
from django.test import Client, TestCase
from django.utils import timezone
from pytest_django import Settings

from accounts.models import User
from catalog.models import Source
from discussions.models import Reply, Thread
from discussions.services import add_reply, start_thread
from library.models import Bookmark
from notes.models import Note
from paths.models import PathStep
from paths.services import add_step, create_path
from teams.models import Session, Team
from teamsources.models import TeamSource
from tests.factories import NoteFactory
from tests.hints import present

from .conftest import a_teammate, add, markdown, signed_in_as_each

pytestmark = pytest.mark.django_db


@pytest.fixture
def row(client: Client, team: Team, member: User) -> TeamSource:
    client.force_login(member)
    add(client, team, url="http://wiki.corp.internal/zanzibar", file=markdown())
    client.logout()
    return TeamSource.objects.select_related("source", "team").get()


@pytest.fixture
def attached(row: TeamSource, team: Team, owner: User, member: User) -> Session:
    """Two readers' bookmarks, a private note and a shared one, a thread with a reply, a path
    step and a planned session, all on the team's source."""
    source = row.source
    for reader in (owner, member):
        Bookmark.objects.create(user=reader, source=source)
    NoteFactory(user=member, source=source, visibility="private")
    NoteFactory(user=owner, source=source, visibility="team", team=team)
    thread, _ = start_thread(author=member, team=team, source=source, title="Why noon?")
    add_reply(thread=thread, author=owner, body="Lunch.")
    add_step(create_path(member, "Outages", team=team), member, source)
    session = Session.objects.create(team=team, title="Design night", starts_at=timezone.now())
    session.sources.add(source)
    return session


def delete_url(row: TeamSource) -> str:
    return f"/teams/{row.team.slug}/sources/{row.pk}/delete/"


def test_the_page_counts_what_goes_with_it_and_deletes_nothing(
    client: Client, row: TeamSource, attached: Session, member: User
) -> None:
    client.force_login(member)
    response = client.get(delete_url(row))
    page = response.content.decode()
    assert response.status_code == 200
    for told in (
        "2 bookmarks on it are deleted",
        "2 notes on it are deleted",
        "1 thread on it is deleted",
        "1 path step on it is deleted",
        "It is taken off 1 session.",
        "notes.md",
    ):
        assert told in page, told
    assert 'method="post"' in page and "csrfmiddlewaretoken" in page
    assert TeamSource.objects.filter(pk=row.pk).exists()
    assert Bookmark.objects.filter(source=row.source).count() == 2


@pytest.mark.parametrize("who", ["member", "owner"])
def test_the_post_deletes_it_with_everything_attached(
    client: Client, row: TeamSource, attached: Session, who: str, member: User, owner: User
) -> None:
    stored = present(row.file.name)
    client.force_login(member if who == "member" else owner)
    with TestCase.captureOnCommitCallbacks(execute=False) as callbacks:
        response = client.post(delete_url(row))
    assert response.status_code == 302 and response["Location"] == f"/teams/{row.team.slug}/"
    # The file leaves storage only once the deletion is committed.
    assert default_storage.exists(stored)
    for callback in callbacks:
        callback()
    assert not default_storage.exists(stored)
    assert not TeamSource.objects.exists()
    assert not Source.all_objects.filter(pk=row.source_id).exists()
    for model in (Bookmark, Note, Thread, Reply, PathStep):
        assert not model._base_manager.exists(), model.__name__
    assert Session.objects.filter(pk=attached.pk).exists()  # the session stays, without it
    assert not attached.sources.through.objects.exists()


def test_a_failure_halfway_keeps_everything_and_the_file(
    client: Client,
    row: TeamSource,
    attached: Session,
    member: User,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stored = present(row.file.name)

    def refuse(self: Source, *args: object, **kwargs: object) -> None:
        raise RuntimeError("the database went away")

    monkeypatch.setattr(Source, "delete", refuse)
    client.raise_request_exception = False
    client.force_login(member)
    with TestCase.captureOnCommitCallbacks(execute=True):
        assert client.post(delete_url(row)).status_code == 500
    assert TeamSource.objects.filter(pk=row.pk).exists()
    assert Bookmark.objects.filter(source=row.source).count() == 2
    assert Thread.objects.filter(source=row.source).exists()
    assert default_storage.exists(stored)


def test_only_the_adder_and_owners_may(
    client: Client, row: TeamSource, team: Team, outsider: User
) -> None:
    for _ in signed_in_as_each(client, (a_teammate(team), outsider, None)):
        assert client.get(delete_url(row)).status_code == 404
        assert client.post(delete_url(row)).status_code == 404
    assert TeamSource.objects.filter(pk=row.pk).exists()


def test_deleting_needs_the_csrf_token(row: TeamSource, member: User) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(member)
    assert client.post(delete_url(row)).status_code == 403
    assert TeamSource.objects.filter(pk=row.pk).exists()


def test_no_cached_page_shows_it_after_deletion(
    client: Client,
    row: TeamSource,
    owner: User,
    member: User,
    settings: Settings,
    fresh_cache: None,
) -> None:
    settings.CATALOG_PAGE_CACHE = True
    client.force_login(member)
    url = f"/sources/{row.source.slug}/"
    for _ in range(2):
        assert client.get(url).status_code == 200
    assert client.get(url).headers.get("X-Page-Cache") == "hit"
    assert "Zanzibar" in client.get("/sources/?q=zanzibar").content.decode()
    client.force_login(owner)
    # The page cache's versions move when the deletion commits, as in production.
    with TestCase.captureOnCommitCallbacks(execute=True):
        assert client.post(delete_url(row)).status_code == 302
    client.force_login(member)
    assert client.get(url).status_code == 404
    assert "Zanzibar" not in client.get("/sources/?q=zanzibar").content.decode()
    assert "Zanzibar" not in client.get(f"/teams/{row.team.slug}/").content.decode()
