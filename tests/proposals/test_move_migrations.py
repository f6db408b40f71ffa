"""A database migrated from before proposals had their own app keeps every proposal and decision."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.state import StateApps


def _before_the_move() -> list[tuple[str, str]]:
    """The catalog migration just before proposals left it (found by name, whatever its number)."""
    graph = MigrationExecutor(connection).loader.graph
    (move_out,) = [
        key for key in graph.nodes if key[0] == "catalog" and key[1].endswith("_proposals_move_out")
    ]
    return [parent.key for parent in graph.node_map[move_out].parents]


def _migrate(targets: list[tuple[str, str]]) -> StateApps:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def _latest() -> list[tuple[str, str]]:
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def _old_rows(apps: StateApps) -> dict[str, object]:
    """Rows as the catalog app stored them, written through its historical models."""
    User = apps.get_model("accounts", "User")
    Tier = apps.get_model("catalog", "Tier")
    Topic = apps.get_model("catalog", "Topic")
    Proposal = apps.get_model("catalog", "Proposal")
    Decision = apps.get_model("catalog", "Decision")
    reader = User.objects.create(email="reader@example.com")
    chief = User.objects.create(email="chief@example.com", is_staff=True)
    tier = Tier.objects.create(slug="core", name="Core", position=1)
    topic = Topic.objects.create(slug="attention", name="Attention", position=1)
    proposal = Proposal.objects.create(
        proposer=reader,
        url="https://example.org/kept",
        title="A kept proposal",
        kind="paper",
        tier=tier,
        mechanism="How it works.",
        basis="mechanism-paper",
        basis_explanation="The original paper.",
        # Stored before there were limits: cut to fit, never dropped.
        conflict_of_interest="x" * 5000,
        status="changes_requested",
    )
    proposal.topics.add(topic)
    Decision.objects.create(
        proposal=proposal, maintainer=chief, action="changes_requested", reason="Add the venue."
    )
    ContentType = apps.get_model("contenttypes", "ContentType")
    return ContentType.objects.get(app_label="catalog", model="proposal").pk


@pytest.mark.django_db(transaction=True)
def test_migrating_from_before_the_move_keeps_every_row() -> None:
    try:
        content_type_id = _old_rows(_migrate(_before_the_move()))
        _migrate(_latest())

        from django.contrib.auth.models import Group
        from django.contrib.contenttypes.models import ContentType

        from proposals.models import Decision, Proposal

        ContentType.objects.clear_cache()
        proposal = Proposal.objects.get()
        assert (proposal.title, proposal.status, proposal.proposer.email) == (
            "A kept proposal",
            "changes_requested",
            "reader@example.com",
        )
        assert [topic.slug for topic in proposal.topics.all()] == ["attention"]
        assert proposal.conflict_of_interest == "x" * 2000
        decision = Decision.objects.get()
        assert (decision.proposal, decision.reason) == (proposal, "Add the venue.")
        # The same content type row, relabelled: permissions and admin history stay attached.
        assert ContentType.objects.get_for_model(Proposal).pk == content_type_id
        maintainers = Group.objects.get(name="Maintainers")
        assert maintainers.permissions.filter(
            content_type__app_label="proposals", codename="add_decision"
        ).exists()
    finally:
        _migrate(_latest())
