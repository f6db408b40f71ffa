"""The user row keeps identity only: when each reader last saw the change log moved to catalog,
and their choice of session reminders to teams, every row's value with it."""

from collections.abc import Iterator
from datetime import timedelta

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.state import StateApps
from django.utils import timezone

from accounts.models import User

BEFORE = [
    ("accounts", "0008_user_session_reminders"),
    ("catalog", "0018_search_entry_moves_to_search"),
    ("teams", "0007_team_departures"),
]


def _migrate(targets: list[tuple[str, str]]) -> StateApps:
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    ContentType.objects.clear_cache()
    return executor.loader.project_state(targets).apps


@pytest.fixture
def old_apps(transactional_db: None) -> Iterator[StateApps]:
    """The schema with both fields on the user row; migrated forward again whatever happens."""
    yield _migrate(BEFORE)
    _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


def test_the_user_row_holds_neither_field() -> None:
    names = {field.name for field in User._meta.get_fields()}
    assert not names & {"last_seen_changes_at", "session_reminders"}


def test_moving_the_fields_keeps_every_readers_values(old_apps: StateApps) -> None:
    OldUser = old_apps.get_model("accounts", "User")
    seen = timezone.now() - timedelta(days=3)
    OldUser.objects.create(email="seen@example.com", password="!", last_seen_changes_at=seen)
    OldUser.objects.create(email="quiet@example.com", password="!", session_reminders=False)
    OldUser.objects.create(email="new@example.com", password="!")

    _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())

    from catalog.changelog import last_seen_changes
    from teams.models import ReminderSettings

    readers = {user.email: user for user in User.objects.all()}
    assert last_seen_changes(readers["seen@example.com"]) == seen
    assert last_seen_changes(readers["quiet@example.com"]) is None
    assert last_seen_changes(readers["new@example.com"]) is None
    chosen = dict(ReminderSettings.objects.values_list("user__email", "session_reminders"))
    assert chosen == {"seen@example.com": True, "quiet@example.com": False, "new@example.com": True}


def test_moving_back_restores_the_user_row(old_apps: StateApps) -> None:
    OldUser = old_apps.get_model("accounts", "User")
    seen = timezone.now() - timedelta(days=1)
    OldUser.objects.create(email="seen@example.com", password="!", last_seen_changes_at=seen)
    OldUser.objects.create(email="quiet@example.com", password="!", session_reminders=False)
    _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())

    back = _migrate(BEFORE).get_model("accounts", "User")

    rows = back.objects.values_list("email", "last_seen_changes_at", "session_reminders")
    assert set(rows) == {("seen@example.com", seen, True), ("quiet@example.com", None, False)}
