"""A database migrated from before search had its own app keeps its search entries and finds."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.state import StateApps
from django.test import Client

BEFORE_THE_MOVE = [("catalog", "0017_source_keywords")]


def _migrate(targets: list[tuple[str, str]]) -> StateApps:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def _latest() -> list[tuple[str, str]]:
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def _old_rows(apps: StateApps) -> int:
    """A published source written through the catalog's historical models, and the content
    type the catalog app gave its search entries."""
    Tier = apps.get_model("catalog", "Tier")
    Source = apps.get_model("catalog", "Source")
    tier = Tier.objects.create(slug="core", name="Core", position=1)
    Source.objects.create(
        slug="paged-attention",
        title="Efficient Memory Management for Large Language Model Serving with PagedAttention",
        url="https://example.org/paged",
        kind="paper",
        tier=tier,
        summary="Pages the KV cache like virtual memory.",
        status="published",
    )
    ContentType = apps.get_model("contenttypes", "ContentType")
    return ContentType.objects.get_or_create(app_label="catalog", model="searchentry")[0].pk


@pytest.mark.django_db(transaction=True)
def test_migrating_from_before_the_move_keeps_the_entries_and_their_content_type(
    client: Client,
) -> None:
    try:
        content_type_id = _old_rows(_migrate(BEFORE_THE_MOVE))
        _migrate(_latest())

        from django.contrib.contenttypes.models import ContentType

        from search.models import SearchEntry

        ContentType.objects.clear_cache()
        # The same content type row, relabelled.
        assert ContentType.objects.get_for_model(SearchEntry).pk == content_type_id
        if connection.vendor == "postgresql":
            # The table and its triggers stayed: the entry written before the move is read.
            assert list(SearchEntry.objects.values_list("source__slug", flat=True)) == [
                "paged-attention"
            ]
        page = client.get("/sources/", {"q": "paged attention"})
        assert b'href="/sources/paged-attention/"' in page.content
    finally:
        _migrate(_latest())
