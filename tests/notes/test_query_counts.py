"""Pages with notes run the same number of queries with 5 notes and with 60."""

import re
from collections.abc import Callable

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from pytest_django import DjangoAssertNumQueries, Settings

from accounts.models import User
from notes.models import Note
from tests.factories import NoteFactory, SourceFactory, UserFactory, join_team
from tests.hints import SmallCatalog

pytestmark = pytest.mark.django_db


@pytest.fixture
def grow_notes(reader: User, small_catalog: SmallCatalog) -> Callable[[int], None]:
    flash = small_catalog["flash"]

    def grow(count: int) -> None:
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
    client: Client,
    reader: User,
    grow_notes: Callable[[int], None],
    url: str,
    django_assert_max_num_queries: DjangoAssertNumQueries,
) -> None:
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
def test_saving_a_note_leaves_its_check_constraints_to_the_insert(
    client: Client, reader: User, small_catalog: SmallCatalog
) -> None:
    """The form's fields already check what the model's constraints say, and the database
    enforces them on the insert: no query asks about each one first, and no savepoint is taken.
    Adding a note purges nothing either (edits and deletions do)."""
    client.force_login(reader)
    with CaptureQueriesContext(connection) as ctx:
        response = client.post(
            "/sources/flashattention/notes/new/", {"body": "Worth it.", "visibility": "private"}
        )
    assert response.status_code == 302
    assert Note.objects.filter(user=reader, body="Worth it.").exists()
    sql = [q["sql"] for q in ctx.captured_queries]
    assert not [s for s in sql if '"_check"' in s]
    assert not [s for s in sql if s.startswith("SAVEPOINT")]
    assert not [s for s in sql if '"deleted_at" <' in s]


def test_signed_in_source_page_asks_for_the_readers_teams_once(
    client: Client,
    reader: User,
    other_reader: User,
    small_catalog: SmallCatalog,
    settings: Settings,
) -> None:
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


def test_saving_a_note_does_not_look_up_its_author_and_source_again(
    client: Client, reader: User, small_catalog: SmallCatalog
) -> None:
    client.force_login(reader)
    with CaptureQueriesContext(connection) as ctx:
        response = client.post(
            "/sources/flashattention/notes/new/", {"body": "Again?", "visibility": "private"}
        )
    assert response.status_code == 302
    sql = [q["sql"] for q in ctx.captured_queries]
    assert not [s for s in sql if s.startswith('SELECT 1 AS "a" FROM "accounts_user"')]
    assert not [s for s in sql if s.startswith('SELECT 1 AS "a" FROM "catalog_source"')]


def test_team_notes_pages_without_counting_every_shared_note(
    client: Client,
    reader: User,
    other_reader: User,
    small_catalog: SmallCatalog,
    settings: Settings,
) -> None:
    """The page reads the rows it shows (and one more), never a COUNT(*) over the team's notes;
    Newer/Older links walk the notes newest first, each exactly once."""
    from notes.views import NOTES_PAGE_SIZE

    settings.CATALOG_PAGE_CACHE = False
    join_team(reader, other_reader)
    total = NOTES_PAGE_SIZE + 3
    for _ in range(total):
        NoteFactory(user=other_reader, source=small_catalog["flash"], visibility="team")
    client.force_login(reader)
    with CaptureQueriesContext(connection) as ctx:
        first = client.get("/notes/team/").content.decode()
    counts = [q["sql"] for q in ctx.captured_queries if "COUNT(" in q["sql"].upper()]
    # The database cache counts its own rows when it stores one (the header's unread count).
    assert not [sql for sql in counts if '"readinglist_cache"' not in sql]
    assert "Older notes" in first and "Newer notes" not in first
    second = client.get("/notes/team/?page=2").content.decode()
    assert "Newer notes" in second and "Older notes" not in second
    ids = [int(i) for i in re.findall(r'id="note-(\d+)"', first + second)]
    newest_first = list(Note.objects.order_by("-created", "-pk").values_list("pk", flat=True))
    assert ids == newest_first
