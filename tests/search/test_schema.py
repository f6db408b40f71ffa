"""The search schema: PostgreSQL gets search entries kept by the declared triggers, a vocabulary
and indexes; SQLite is left alone."""

from typing import Any

import pytest
from django.db import connection
from pytest_django import Settings

from catalog.models import ListSection, ReadingList, Source
from search.document import SEARCH_DOCUMENT, Field
from search.match import match
from search.page import search_sources
from search.parsing import SearchParams
from search.rank import rank
from search.triggers import declared_functions, declared_triggers
from tests.factories import (
    ListEntryFactory,
    ListSectionFactory,
    ReadingListFactory,
    SourceFactory,
    TopicFactory,
)
from tests.hints import Tiers

pytestmark = pytest.mark.django_db


def tables() -> set[str]:
    with connection.cursor() as cursor:
        return set(connection.introspection.table_names(cursor))


def entry(
    source: Source, columns: str = "document::text, tier_id, kind, year, is_primary, topic_ids"
) -> tuple[Any, ...]:
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {columns} FROM catalog_search_entry WHERE source_id = %s", [source.pk]
        )
        row = cursor.fetchone()
    assert row is not None, f"no search entry for {source.slug}"
    return row


def has_entry(source: Source) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM catalog_search_entry WHERE source_id = %s", [source.pk])
        return cursor.fetchone() is not None


def test_sqlite_schema_has_no_postgresql_parts() -> None:
    assert ("catalog_search_entry" in tables()) == (connection.vendor == "postgresql")


@pytest.mark.postgres
def test_document_is_weighted_and_kept_in_the_same_transaction(tiers: Tiers) -> None:
    topic = TopicFactory(name="Collectives")
    source = SourceFactory(
        title="RingFlow kernels",
        authors="Ada Byron, Alan Turing",
        aliases="RK",
        venue="MLSys",
        summary="Fast.",
    )
    source.topics.add(topic)
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM catalog_search_word WHERE word = 'collectives'")
        remembered = cursor.fetchone()[0]
    document = entry(source)[0]
    # PostgreSQL prints weight D (the default) without a letter. The first author is a name of
    # the source (B), the others come last (D); a camel-case name's parts weigh as the summary.
    expected = [
        "'ringflow':1A",
        "'rk':3B",
        "'byron':5B",
        "'mlsys':6C",
        "'collect':7C",
        "'fast':8",
        "'ring':9",
        "'flow':10",
        "'ture':12",
    ]
    for lexeme in expected:
        assert lexeme in document.split()
    assert remembered == 1


def installed_functions() -> dict[str, str]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT p.proname, p.prosrc FROM pg_proc p"
            " JOIN pg_namespace n ON n.oid = p.pronamespace"
            " WHERE n.nspname = 'public' AND p.proname LIKE 'catalog%%'"
        )
        return {name: body.strip() for name, body in cursor.fetchall()}


def installed_triggers() -> set[str]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_get_triggerdef(t.oid) FROM pg_trigger t"
            " JOIN pg_class c ON c.oid = t.tgrelid"
            " WHERE NOT t.tgisinternal AND c.relname LIKE 'catalog%%'"
        )
        return {row[0] for row in cursor.fetchall()}


@pytest.mark.postgres
def test_installed_functions_and_triggers_are_the_declared_ones() -> None:
    """The database runs exactly what search/ declares: no trigger left from an older
    schema, none missing, and every function body as generated from SEARCH_DOCUMENT."""
    declared = {function.name: function.body.strip() for function in declared_functions()}
    assert installed_functions() == declared
    assert installed_triggers() == {trigger.definition() for trigger in declared_triggers()}


@pytest.mark.postgres
def test_a_changed_declaration_no_longer_matches_the_database() -> None:
    title_at_b = tuple(
        Field("title", "B") if getattr(part, "name", "") == "title" else part
        for part in SEARCH_DOCUMENT
    )
    declared = {function.name: function.body.strip() for function in declared_functions(title_at_b)}
    installed = installed_functions()
    assert installed["catalog_source_document"] != declared["catalog_source_document"]
    assert "'B'" in declared["catalog_source_document"].split("||")[0]


@pytest.mark.postgres
def test_indexes_exist() -> None:
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
def test_entry_follows_what_facets_count_and_only_published_sources(tiers: Tiers) -> None:
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
    assert not has_entry(source)
    source.status = "published"
    source.save()
    assert has_entry(source)
    deleted = SourceFactory.build(pk=source.pk)
    source.delete()
    assert not has_entry(deleted)


def listed(source: Source) -> tuple[Any, ...]:
    return entry(source, "list_ids, first_list, first_section, first_position")


@pytest.mark.postgres
def test_entry_follows_the_lists_that_cite_the_source(tiers: Tiers) -> None:
    early = ReadingListFactory(position=1)
    late = ReadingListFactory(position=5)
    source = SourceFactory()
    assert listed(source) == ([], None, None, None)

    first = ListEntryFactory(
        source=source, section=ListSectionFactory(reading_list=late, position=3), position=7
    )
    assert listed(source) == ([late.pk], 5, 3, 7)
    ListEntryFactory(
        source=source, section=ListSectionFactory(reading_list=early, position=2), position=9
    )
    assert listed(source) == (sorted([early.pk, late.pk]), 1, 2, 7)

    # Moving a list, a section or an entry moves the source with it.
    ReadingList.objects.filter(pk=early.pk).update(position=8)
    assert listed(source)[1] == 5
    ListSection.objects.filter(pk=first.section_id).update(position=1)
    assert listed(source)[2] == 1
    first.position = 4
    first.save()
    assert listed(source)[3] == 4
    ListSection.objects.filter(pk=first.section_id).update(reading_list=early)
    assert listed(source)[0] == [early.pk]

    first.section.entries.all().delete()
    assert listed(source) == ([early.pk], 8, 2, 9)
    source.entries.all().delete()
    assert listed(source) == ([], None, None, None)

    # A republished source gets its list columns back with the rest of its entry.
    ListEntryFactory(
        source=source, section=ListSectionFactory(reading_list=late, position=4), position=1
    )
    source.status = "retired"
    source.save()
    source.status = "published"
    source.save()
    assert listed(source) == ([late.pk], 5, 4, 1)


@pytest.mark.postgres
def test_list_order_from_the_entries_matches_the_sources_list_order(
    tiers: Tiers, settings: Settings
) -> None:
    settings.CATALOG_PAGE_SIZE = 4
    lists = [ReadingListFactory(position=p) for p in (2, 1)]
    sections = [ListSectionFactory(reading_list=rl, position=p) for rl in lists for p in (1, 2)]
    sources = [SourceFactory(title=f"Paper {n:02}") for n in range(12)]
    for n, source in enumerate(sources[:9]):
        ListEntryFactory(source=source, section=sections[n % 4], position=12 - n)
    ListEntryFactory(source=sources[0], section=sections[3], position=1)
    expected = list(Source.objects.published().in_list_order().values_list("pk", flat=True))
    shown = []
    for number in (1, 2, 3):
        page = search_sources(SearchParams(sort="list", page=number)).page
        shown += [source.pk for source in page.object_list]
    assert shown == expected
    # The fallback (a page past the end) orders the same way.
    assert list(rank(match(SearchParams()), "list").ids) == expected


@pytest.mark.postgres
@pytest.mark.parametrize("sort", ["relevance", "list", "newest", "title", "year"])
def test_pages_picked_by_the_facet_statement_follow_the_orm_ordering(
    tiers: Tiers, settings: Settings, sort: str
) -> None:
    """postgres_rank.PAGE_ORDERS restates each ordering in SQL: the two must agree."""
    settings.CATALOG_PAGE_SIZE = 4
    for n in range(10):
        # Ties on year and on rank, so the tie-breaks are compared too.
        SourceFactory(title=f"Kernel paper {n % 3}", year=2020 + n % 2 if n % 4 else None)
    params = SearchParams(q="kernel" if sort == "relevance" else "", sort=sort)
    ordered = list(rank(match(params), sort).ids)
    shown = []
    for number in (1, 2, 3):
        params.page = number
        shown += [source.pk for source in search_sources(params).page.object_list]
    assert shown == ordered and len(shown) == 10
