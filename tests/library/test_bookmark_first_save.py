"""A first save inserts at once: the control says the source is not saved yet, so the click
sends one INSERT through the model instead of a read and an insert, and a control that was wrong
(the source saved from another tab since) still ends with the one row, changed."""

import pytest
from django.db import connection
from django.db.models.signals import post_save
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from library.controls import fields_html
from library.models import Bookmark
from library.services import set_status
from tests.hints import SmallCatalog

pytestmark = pytest.mark.django_db


def _bookmark_statements(queries: list[dict[str, str]]) -> list[str]:
    """The statements that read or write the bookmark table, by their first word."""
    table = f'"{Bookmark._meta.db_table}"'
    return [q["sql"].split()[0] for q in queries if table in q["sql"]]


def test_only_the_control_of_an_unsaved_source_says_it_is_unsaved() -> None:
    def fields(status: str) -> str:
        return fields_html.__wrapped__(7, "flash", "Flash", status, "", "/", "")

    assert '<input type="hidden" name="unsaved" value="1">' in fields("")
    assert 'name="unsaved"' not in fields("reading")


def test_a_first_save_from_an_unsaved_control_is_one_insert(
    client: Client, reader: User, small_catalog: SmallCatalog
) -> None:
    source = small_catalog["flash"]
    client.force_login(reader)
    heard: list[bool] = []

    def receiver(sender: type[Bookmark], instance: Bookmark, created: bool, **_: object) -> None:
        heard.append(created)

    post_save.connect(receiver, sender=Bookmark, weak=False)
    try:
        with CaptureQueriesContext(connection) as queries:
            response = client.post(
                f"/library/bookmarks/{source.slug}/", {"status": "reading", "unsaved": "1"}
            )
    finally:
        post_save.disconnect(receiver, sender=Bookmark)
    assert response.status_code == 302
    assert _bookmark_statements(queries.captured_queries) == ["INSERT"]
    assert heard == [True]  # the model's signal, so the page cache hears it
    stored = Bookmark.objects.get(user=reader, source=source)
    assert stored.status == "reading" and stored.started_at and stored.finished_at is None


def test_without_the_word_a_first_save_reads_then_inserts(
    client: Client, reader: User, small_catalog: SmallCatalog
) -> None:
    source = small_catalog["flash"]
    client.force_login(reader)
    with CaptureQueriesContext(connection) as queries:
        client.post(f"/library/bookmarks/{source.slug}/", {"status": "to_read"})
    assert _bookmark_statements(queries.captured_queries) == ["SELECT", "INSERT"]


def test_an_unsaved_control_on_a_saved_source_changes_the_one_row(
    client: Client, reader: User, small_catalog: SmallCatalog
) -> None:
    """Saved from another tab meanwhile: the insert finds the row, which is read and changed;
    its start date stays, and the request's transaction is still usable after the refusal."""
    source = small_catalog["flash"]
    first = set_status(user=reader, source=source, status="reading")
    client.force_login(reader)
    response = client.post(f"/library/bookmarks/{source.slug}/", {"status": "read", "unsaved": "1"})
    assert response.status_code == 302
    (stored,) = Bookmark.objects.filter(user=reader, source=source)
    assert stored.pk == first.pk and stored.status == "read"
    assert stored.started_at == first.started_at and stored.finished_at


def test_an_unsaved_repeat_of_the_same_status_changes_nothing(
    reader: User, small_catalog: SmallCatalog
) -> None:
    source = small_catalog["flash"]
    first = set_status(user=reader, source=source, status="read", unsaved=True)
    again = set_status(user=reader, source=source, status="read", unsaved=True)
    stored = Bookmark.objects.get(pk=first.pk)
    assert again.pk == first.pk
    assert (stored.updated, stored.finished_at) == (first.updated, first.finished_at)


@pytest.mark.django_db(transaction=True)
def test_outside_a_transaction_the_first_save_sends_no_savepoint(
    reader: User, small_catalog: SmallCatalog
) -> None:
    """As a request runs it (autocommit): one statement, no savepoint around it; a refused
    insert there costs nothing to undo either."""
    source = small_catalog["flash"]
    with CaptureQueriesContext(connection) as queries:
        set_status(user=reader, source=source, status="to_read", unsaved=True)
    assert _bookmark_statements(queries.captured_queries) == ["INSERT"]
    assert not [q for q in queries.captured_queries if "SAVEPOINT" in q["sql"]]
    with CaptureQueriesContext(connection) as queries:
        changed = set_status(user=reader, source=source, status="reading", unsaved=True)
    assert _bookmark_statements(queries.captured_queries) == ["INSERT", "SELECT", "UPDATE"]
    assert changed.status == "reading"
