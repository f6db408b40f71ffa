"""Migrations 0003 and 0006: PostgreSQL gets search entries, a vocabulary and indexes; SQLite
is left alone."""

import pytest
from django.db import connection

from tests.factories import SourceFactory, TopicFactory

pytestmark = pytest.mark.django_db


def tables():
    with connection.cursor() as cursor:
        return set(connection.introspection.table_names(cursor))


def entry(source):
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT document::text, tier_id, kind, year, is_primary, topic_ids "
            "FROM catalog_search_entry WHERE source_id = %s",
            [source.pk],
        )
        return cursor.fetchone()


def test_sqlite_schema_has_no_postgresql_parts():
    assert ("catalog_search_entry" in tables()) == (connection.vendor == "postgresql")


@pytest.mark.postgres
def test_document_is_weighted_and_kept_in_the_same_transaction(tiers):
    topic = TopicFactory(name="Collectives")
    source = SourceFactory(
        title="Ring kernels", authors="Ada Byron", aliases="RK", venue="MLSys", summary="Fast."
    )
    source.topics.add(topic)
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM catalog_search_word WHERE word = 'collectives'")
        remembered = cursor.fetchone()[0]
    document = entry(source)[0]
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
        "catalog_search_entry_document_gin",
        "catalog_search_entry_topics_gin",
        "catalog_source_title_trgm",
        "catalog_search_word_trgm",
    } <= names


@pytest.mark.postgres
def test_entry_follows_what_facets_count_and_only_published_sources(tiers):
    topic, other = TopicFactory(), TopicFactory()
    source = SourceFactory(kind="paper", year=2020, basis="none")
    source.topics.set([other, topic])
    _, tier_id, kind, year, is_primary, topic_ids = entry(source)
    assert (tier_id, kind, year, is_primary) == (source.tier_id, "paper", 2020, False)
    assert topic_ids == sorted([topic.pk, other.pk])

    source.kind, source.year, source.basis = "article", 2024, "specification"
    source.tier = tiers["core"]
    source.save()
    assert entry(source)[1:5] == (tiers["core"].pk, "article", 2024, True)

    source.status = "retired"
    source.save()
    assert entry(source) is None
    source.status = "published"
    source.save()
    assert entry(source) is not None
    deleted = SourceFactory.build(pk=source.pk)
    source.delete()
    assert entry(deleted) is None
