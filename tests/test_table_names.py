"""Every table is named for the app that owns its model, and renaming the tables that kept a
former owner's name (bookmarks and notes from accounts, proposals from catalog) kept every row."""

from collections.abc import Iterator
from pathlib import Path

import pytest
from django.apps import apps
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.state import StateApps
from django.utils import timezone

from catalog.models import Source, Tier, Topic
from tests.factories import SourceFactory, TierFactory, TopicFactory

ROOT = Path(__file__).resolve().parent.parent
RENAMED = "tables_named_for_their_app"
# Tables that still carry another app's name, and why.
KEEP_FORMER_NAMES = {
    # The PostgreSQL triggers of search/triggers.py write this table by name, from the catalog's
    # own statements; renaming it means installing new trigger functions in the same migration.
    "search.SearchEntry": "catalog_search_entry",
}


def test_every_table_is_named_for_its_app() -> None:
    misnamed = {
        model._meta.label: model._meta.db_table
        for model in apps.get_models(include_auto_created=True)
        if Path(model._meta.app_config.path).parent == ROOT
        and not model._meta.db_table.startswith(f"{model._meta.app_label}_")
    }
    assert misnamed == KEEP_FORMER_NAMES


def _before_the_rename() -> list[tuple[str, str]]:
    graph = MigrationExecutor(connection).loader.graph
    renames = [key for key in graph.nodes if key[1].endswith(RENAMED)]
    assert {app for app, _ in renames} == {"library", "notes", "proposals"}
    # The user row as it was then too: its fields that later moved to catalog and teams.
    user_row = ("accounts", "0008_user_session_reminders")
    return [parent.key for key in renames for parent in graph.node_map[key].parents] + [user_row]


def _migrate(targets: list[tuple[str, str]]) -> StateApps:
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    ContentType.objects.clear_cache()
    return executor.loader.project_state(targets).apps


def _latest() -> list[tuple[str, str]]:
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


@pytest.fixture
def catalog_rows(transactional_db: None) -> Iterator[tuple[Source, Topic, Tier]]:
    """A source, a topic and a tier, made before the tables are renamed back (the catalog's own
    tables stay as they are); the database is migrated forward again whatever the test does."""
    yield SourceFactory(), TopicFactory(), TierFactory()
    _migrate(_latest())


def _fill(old_apps: StateApps, source: Source, topic: Topic, tier: Tier) -> None:
    User = old_apps.get_model("accounts", "User")
    reader = User.objects.create(email="ada@example.com", password="!")
    chief = User.objects.create(email="chief@example.com", password="!", is_staff=True)
    now = timezone.now()
    old_apps.get_model("library", "Bookmark").objects.create(
        user=reader, source_id=source.pk, status="read", started_at=now, finished_at=now
    )
    old_apps.get_model("notes", "Note").objects.create(
        user=reader, source_id=source.pk, body="Tiling.", body_html="<p>Tiling.</p>"
    )
    proposal = old_apps.get_model("proposals", "Proposal").objects.create(
        proposer=reader,
        url="https://example.org/kept",
        title="A kept proposal",
        kind="paper",
        tier_id=tier.pk,
        mechanism="How it works.",
        basis="mechanism-paper",
        basis_explanation="The original paper.",
        status="changes_requested",
    )
    proposal.topics.add(topic.pk)
    old_apps.get_model("proposals", "Decision").objects.create(
        proposal=proposal, maintainer=chief, action="changes_requested", reason="Add the venue."
    )


def test_renaming_the_tables_keeps_every_row(catalog_rows: tuple[Source, Topic, Tier]) -> None:
    source, topic, tier = catalog_rows
    old_names = _migrate(_before_the_rename())
    old_tables = {"accounts_bookmark", "accounts_note", "catalog_proposal", "catalog_decision"}
    assert old_tables <= set(connection.introspection.table_names())
    _fill(old_names, source, topic, tier)

    _migrate(_latest())

    from library.models import Bookmark
    from notes.models import Note
    from proposals.models import Decision, Proposal

    tables = set(connection.introspection.table_names())
    assert not old_tables & tables
    assert {"library_bookmark", "notes_note", "proposals_proposal", "proposals_decision"} <= tables
    assert "proposals_proposal_topics" in tables
    bookmark = Bookmark.objects.get()
    assert (bookmark.user.email, bookmark.source, bookmark.status) == (
        "ada@example.com",
        source,
        "read",
    )
    assert Note.objects.get().body == "Tiling."
    proposal = Proposal.objects.get()
    assert [t.pk for t in proposal.topics.all()] == [topic.pk]
    assert Decision.objects.get().proposal == proposal
    # New rows get ids after the kept ones: the id sequences moved with their tables.
    assert Bookmark.objects.create(user=bookmark.user, source=SourceFactory()).pk > bookmark.pk
