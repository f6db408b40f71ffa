""" "N teammates finished" counts the sources the page shows, in one query, whatever the
teammates have read elsewhere."""

import re

import pytest
from django.db import connection
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext
from pytest_django import Settings

from accounts.models import User
from library.models import Bookmark
from library.reading import team_finished
from tests.factories import SourceFactory, UserFactory, join_team
from tests.hints import SmallCatalog, Tiers, found

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _render_every_time(settings: Settings) -> None:
    settings.CATALOG_PAGE_CACHE = False


def counting_queries(client: Client, url: str) -> list[str]:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return [
        q["sql"]
        for q in ctx.captured_queries
        if q["sql"].startswith('SELECT "library_bookmark"."source_id"') and "COUNT(" in q["sql"]
    ]


@pytest.mark.parametrize("url", ["/", "/tiers/start-here/", "/lists/wafer/"])
def test_one_query_counts_only_the_sources_shown(
    client: Client, reader: User, small_catalog: SmallCatalog, tiers: Tiers, url: str
) -> None:
    mate = UserFactory()
    join_team(reader, mate)
    elsewhere = SourceFactory.create_batch(5, tier=tiers["core"])
    shown = [*small_catalog["path"], small_catalog["flash"]]
    Bookmark.objects.bulk_create(
        Bookmark(user=mate, source=source, status="read") for source in [*shown, *elsewhere]
    )
    client.force_login(reader)
    (query,) = counting_queries(client, url)
    named = {
        int(pk) for pk in found(re.search(r'"source_id" IN \(([^)]*)\)', query))[1].split(", ")
    }
    assert named <= {source.pk for source in shown}
    assert named >= {source.pk for source in small_catalog["path"]}
    assert "1 teammate finished" in client.get(url).content.decode()


def test_a_source_not_named_at_first_is_counted_when_asked(
    rf: RequestFactory, reader: User, small_catalog: SmallCatalog
) -> None:
    mate = UserFactory()
    join_team(reader, mate)
    scaling, attention, _ = small_catalog["path"]
    for source in (scaling, attention):
        Bookmark.objects.create(user=mate, source=source, status="read")
    request = rf.get("/")
    request.user = reader
    with CaptureQueriesContext(connection) as ctx:
        assert [f.others for f in team_finished(request, scaling, among=[scaling])] == [1]
        assert [f.others for f in team_finished(request, scaling, among=[scaling])] == [1]
        assert [f.others for f in team_finished(request, attention)] == [1]
    # The reader's teams, their library, then one count per source not yet counted.
    assert len(ctx.captured_queries) == 4


@pytest.mark.postgres
def test_the_count_reads_the_finished_bookmarks_of_the_sources_shown(
    rf: RequestFactory, reader: User, tiers: Tiers
) -> None:
    """With statistics like a real catalog's, PostgreSQL finds the finished bookmarks of the
    shown sources through bookmark_read_source rather than every teammate's bookmarks."""
    sources = SourceFactory.create_batch(100, tier=tiers["core"])
    readers = UserFactory.create_batch(100)
    join_team(reader, *readers[:40])
    Bookmark.objects.bulk_create(
        Bookmark(user=r, source=s, status="read" if (r.pk + s.pk) % 5 == 0 else "to_read")
        for r in readers
        for s in sources
    )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE library_bookmark; ANALYZE teams_membership")
    request = rf.get("/")
    request.user = reader
    with CaptureQueriesContext(connection) as ctx:
        team_finished(request, sources[0], among=sources[:3])
    (query,) = [q["sql"] for q in ctx.captured_queries if "COUNT(" in q["sql"]]
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN {query}")
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "bookmark_read_source" in plan, plan
