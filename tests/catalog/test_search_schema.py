"""Migration 0003: PostgreSQL gets the search document and indexes; SQLite is left alone."""

import pytest
from django.db import connection

from tests.factories import SourceFactory, TopicFactory

pytestmark = pytest.mark.django_db


def columns():
    with connection.cursor() as cursor:
        return {
            c.name for c in connection.introspection.get_table_description(cursor, "catalog_source")
        }


def test_sqlite_schema_has_no_postgresql_parts():
    if connection.vendor == "postgresql":
        assert "search_document" in columns()
    else:
        assert "search_document" not in columns()


@pytest.mark.postgres
def test_document_is_weighted_and_kept_in_the_same_transaction(tiers):
    topic = TopicFactory(name="Collectives")
    source = SourceFactory(
        title="Ring kernels", authors="Ada Byron", aliases="RK", venue="MLSys", summary="Fast."
    )
    source.topics.add(topic)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT search_document::text FROM catalog_source WHERE id = %s", [source.pk]
        )
        document = cursor.fetchone()[0]
        cursor.execute("SELECT count(*) FROM catalog_search_word WHERE word = 'collectives'")
        remembered = cursor.fetchone()[0]
    # PostgreSQL prints weight D (the default) without a letter.
    for lexeme in ["'ring':1A", "'byron':4B", "'rk':5B", "'mlsys':6C", "'collect':7C", "'fast':8"]:
        assert lexeme in document.split()
    assert remembered == 1


@pytest.mark.postgres
def test_indexes_exist():
    with connection.cursor() as cursor:
        cursor.execute("SELECT indexname FROM pg_indexes WHERE tablename LIKE 'catalog_s%%'")
        names = {row[0] for row in cursor.fetchall()}
    assert {
        "catalog_source_document_gin",
        "catalog_source_title_trgm",
        "catalog_search_word_trgm",
    } <= names
