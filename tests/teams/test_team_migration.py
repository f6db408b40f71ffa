"""A database with today's team notes migrates to teams without anyone losing what they read."""

from collections.abc import Iterator
from datetime import timedelta

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.state import ProjectState, StateApps
from django.utils import timezone

from accounts.models import User
from notes.models import Note
from teams.domains import join_teams_by_domain
from teams.models import Membership, Team
from tests.factories import SourceFactory, UserFactory

MOVE = "team_notes_to_everyone"


def before_the_move() -> tuple[str, str]:
    graph = MigrationExecutor(connection).loader.graph
    (move,) = [key for key in graph.nodes if key[0] == "notes" and key[1].endswith(MOVE)]
    (previous,) = [p.key for p in graph.node_map[move].parents if p.key[0] == "notes"]
    return previous


def migrate(targets: list[tuple[str, str]]) -> ProjectState:
    state = MigrationExecutor(connection).migrate(targets)
    ContentType.objects.clear_cache()
    return state


@pytest.fixture
def before(transactional_db: None) -> Iterator[StateApps]:
    state = migrate([before_the_move()])
    yield state.apps
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


def test_team_notes_move_to_a_team_every_existing_reader_joins(before: StateApps) -> None:
    source = SourceFactory(slug="flash")
    OldUser = before.get_model("accounts", "User")
    OldNote = before.get_model("notes", "Note")
    early = timezone.now() - timedelta(days=30)
    first = OldUser.objects.create(email="first@example.com", password="!", date_joined=early)
    staff = OldUser.objects.create(email="staff@example.com", password="!", is_staff=True)
    reader = OldUser.objects.create(email="reader@example.com", password="!")
    shared = OldNote.objects.create(
        user=reader,
        source_id=source.pk,
        body="for all",
        body_html="<p>for all</p>",
        visibility="team",
    )
    private = OldNote.objects.create(
        user=first, source_id=source.pk, body="mine", body_html="<p>mine</p>"
    )

    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())

    everyone = Team.objects.get(slug="everyone")
    assert everyone.name == "Everyone" and not everyone.domains.exists()
    roles = dict(Membership.objects.filter(team=everyone).values_list("user__email", "role"))
    assert roles == {
        "first@example.com": "member",
        "staff@example.com": "owner",
        "reader@example.com": "member",
    }
    note = Note.objects.get(pk=shared.pk)
    assert (note.visibility, note.team) == ("team", everyone)
    assert Note.objects.get(pk=private.pk).team is None
    # Every reader still reads the team note, and only its author the private one.
    for user in User.objects.all():
        visible = set(Note.objects.visible_to(user).values_list("pk", flat=True))
        assert shared.pk in visible
        assert (private.pk in visible) == (user.email == "first@example.com")
    # A reader who signs up later does not join it by themselves.
    newcomer = UserFactory(email="new@example.com")
    assert join_teams_by_domain(user=newcomer, email=newcomer.email) == []
    assert not Note.objects.visible_to(newcomer).exists()
    assert staff.pk in everyone.members.values_list("pk", flat=True)


def test_a_site_without_readers_gets_no_team(before: StateApps) -> None:
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
    assert not Team.objects.exists()
