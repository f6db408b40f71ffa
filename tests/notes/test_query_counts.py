"""Pages with notes run the same number of queries with 5 notes and with 60."""

import pytest
from django.db import connection
from django.db.models import CheckConstraint
from django.test.utils import CaptureQueriesContext

from notes.models import Note
from tests.factories import NoteFactory, SourceFactory, UserFactory, join_team

pytestmark = pytest.mark.django_db


@pytest.fixture
def grow_notes(reader, small_catalog):
    flash = small_catalog["flash"]

    def grow(count):
        # Half the reader's own notes, half teammates' shared notes, each by a new author and
        # half on other sources, so a per-note query for author or source would show.
        for n in range(count):
            source = flash if n % 2 else SourceFactory(topics=small_catalog["topics"][:1])
            if n % 3:
                NoteFactory(user=reader, source=source, visibility="team" if n % 4 else "private")
            else:
                NoteFactory(user=UserFactory(), source=source, visibility="team")

    return grow


@pytest.mark.parametrize(
    "url",
    [
        "/sources/flashattention/",
        "/library/notes/",
        "/library/notes/?q=note&topic=kernels&visibility=team",
        "/notes/team/",
        "/library/notes/export.md",
        "/library/notes/export.json",
    ],
)
def test_queries_flat_between_5_and_60_notes(
    client, reader, grow_notes, url, django_assert_max_num_queries
):
    client.force_login(reader)
    grow_notes(5)
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    baseline = len(ctx.captured_queries)
    grow_notes(55)
    with django_assert_max_num_queries(baseline):
        response = client.get(url)
        assert response.status_code == 200


@pytest.mark.django_db(transaction=True)  # no test transaction around it, as in production
def test_saving_a_note_checks_each_constraint_once_and_outside_the_transaction(
    client, reader, small_catalog
):
    """The form's fields already check what the model's constraints say; the service checks
    the constraints once, before its transaction, so no savepoint wraps each check."""
    client.force_login(reader)
    with CaptureQueriesContext(connection) as ctx:
        response = client.post(
            "/sources/flashattention/notes/new/", {"body": "Worth it.", "visibility": "private"}
        )
    assert response.status_code == 302
    assert Note.objects.filter(user=reader, body="Worth it.").exists()
    sql = [q["sql"] for q in ctx.captured_queries]
    checks = [s for s in sql if '"_check"' in s]
    constraints = [c for c in Note._meta.constraints if isinstance(c, CheckConstraint)]
    assert 0 < len(checks) == len(set(checks)) <= len(constraints)
    assert not [s for s in sql if s.startswith("SAVEPOINT")]


def test_signed_in_source_page_asks_for_the_readers_teams_once(
    client, reader, other_reader, small_catalog, settings
):
    """The team panels and the note form share one query for the reader's teams."""
    settings.CATALOG_PAGE_CACHE = False
    join_team(reader, other_reader)
    join_team(reader, slug="kernels")
    client.force_login(reader)
    with CaptureQueriesContext(connection) as ctx:
        html = client.get("/sources/flashattention/").content.decode()
    teams_queries = [
        q["sql"]
        for q in ctx.captured_queries
        if q["sql"].startswith('SELECT "teams_team"."id"') and "teams_membership" in q["sql"]
    ]
    assert len(teams_queries) == 1
    # The note form still offers both teams.
    assert "Kernels (its members, with your name)" in html
    assert "Readers (its members, with your name)" in html


def test_saving_a_note_does_not_look_up_its_author_and_source_again(client, reader, small_catalog):
    client.force_login(reader)
    with CaptureQueriesContext(connection) as ctx:
        response = client.post(
            "/sources/flashattention/notes/new/", {"body": "Again?", "visibility": "private"}
        )
    assert response.status_code == 302
    sql = [q["sql"] for q in ctx.captured_queries]
    assert not [s for s in sql if s.startswith('SELECT 1 AS "a" FROM "accounts_user"')]
    assert not [s for s in sql if s.startswith('SELECT 1 AS "a" FROM "catalog_source"')]
