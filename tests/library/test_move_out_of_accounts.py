"""A database migrated from the layout where bookmarks and notes lived in `accounts` keeps every
row, readable through the library and notes apps' models, and its admin history with them."""

from collections.abc import Iterator

import pytest
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.state import ProjectState, StateApps
from django.db.models import Model
from django.utils import timezone

from catalog.models import Source
from library.models import Bookmark
from notes.models import Note
from tests.factories import SourceFactory

MOVE_OUT = "bookmark_note_move_out"


def before_the_move() -> tuple[str, str]:
    """The accounts migration the move-out follows: the last one that still held Bookmark and
    Note. Found by the move-out's name, so renumbering it on a merge keeps this test valid."""
    graph = MigrationExecutor(connection).loader.graph
    (move_out,) = [key for key in graph.nodes if key[0] == "accounts" and key[1].endswith(MOVE_OUT)]
    (previous,) = [p.key for p in graph.node_map[move_out].parents if p.key[0] == "accounts"]
    return previous


def migrate(targets: list[tuple[str, str]]) -> ProjectState:
    executor = MigrationExecutor(connection)
    state = executor.migrate(targets)
    ContentType.objects.clear_cache()
    return state


def all_leaves() -> list[tuple[str, str]]:
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


@pytest.fixture
def old_layout(transactional_db: None) -> Iterator[StateApps]:
    """The database as it was before the move; migrated forward again whatever the test does."""
    state = migrate([before_the_move()])
    yield state.apps
    migrate(all_leaves())


def fill_old_tables(old_apps: StateApps, sources: list[Source]) -> Model:
    """Readers, bookmarks, notes and an admin log entry, written through the old models."""
    OldUser = old_apps.get_model("accounts", "User")
    OldBookmark = old_apps.get_model("accounts", "Bookmark")
    OldNote = old_apps.get_model("accounts", "Note")
    OldContentType = old_apps.get_model("contenttypes", "ContentType")
    OldLogEntry = old_apps.get_model("admin", "LogEntry")
    ada = OldUser.objects.create(email="ada@example.com", password="!")
    bob = OldUser.objects.create(email="bob@example.com", password="!")
    now = timezone.now()
    kept = OldBookmark.objects.create(
        user=ada, source_id=sources[0].pk, status="read", started_at=now, finished_at=now
    )
    OldBookmark.objects.create(user=ada, source_id=sources[1].pk, status="reading", started_at=now)
    OldBookmark.objects.create(user=bob, source_id=sources[0].pk, status="to_read")
    OldNote.objects.create(
        user=ada,
        source_id=sources[0].pk,
        body="Tiling *matters*.",
        body_html="<p>Tiling <em>matters</em>.</p>",
        visibility="team",
        locator="p. 4",
    )
    OldNote.objects.create(
        user=bob,
        source_id=sources[1].pk,
        body="Private thought.",
        body_html="<p>Private thought.</p>",
    )
    bookmark_type, _ = OldContentType.objects.get_or_create(app_label="accounts", model="bookmark")
    OldLogEntry.objects.create(
        user=ada,
        content_type=bookmark_type,
        object_id=str(kept.pk),
        object_repr="ada · first",
        action_flag=CHANGE,
        change_message="[]",
        action_time=now,
    )
    return kept


def test_every_bookmark_and_note_is_kept_and_readable(old_layout: StateApps) -> None:
    sources = [SourceFactory(slug="first"), SourceFactory(slug="second")]
    kept = fill_old_tables(old_layout, sources)

    migrate(all_leaves())

    assert {(b.user.email, b.source.slug, b.status) for b in Bookmark.objects.all()} == {
        ("ada@example.com", "first", "read"),
        ("ada@example.com", "second", "reading"),
        ("bob@example.com", "first", "to_read"),
    }
    read = Bookmark.objects.get(pk=kept.pk)
    assert read.finished_at is not None and read.started_at is not None
    team_note = Note.objects.get(user__email="ada@example.com")
    assert (team_note.source.slug, team_note.locator, team_note.is_team) == ("first", "p. 4", True)
    assert str(team_note.body_markup) == "<p>Tiling <em>matters</em>.</p>"
    assert list(Note.objects.filter(team__slug="everyone")) == [team_note]
    assert Note.objects.get(user__email="bob@example.com").body == "Private thought."


def test_admin_history_and_permissions_follow_the_models(old_layout: StateApps) -> None:
    sources = [SourceFactory(slug="first"), SourceFactory(slug="second")]
    kept = fill_old_tables(old_layout, sources)

    migrate(all_leaves())

    entry = LogEntry.objects.get()
    assert entry.content_type is not None and entry.content_type.app_label == "library"
    assert entry.get_edited_object() == Bookmark.objects.get(pk=kept.pk)
    assert ContentType.objects.get_for_model(Bookmark).app_label == "library"
    assert ContentType.objects.get_for_model(Note).app_label == "notes"
    assert not ContentType.objects.filter(app_label="accounts", model__in=["bookmark", "note"])
    assert Permission.objects.filter(
        codename="view_bookmark", content_type__app_label="library"
    ).exists()
