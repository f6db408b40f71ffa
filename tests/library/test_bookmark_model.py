"""The database carries the bookmark invariants; the services keep the dates sensible."""

import re
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.models.deletion import ProtectedError
from django.db.models.signals import post_delete, post_save
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from library.models import Bookmark
from library.services import _apply_dates, apply_action, bulk_apply, remove_bookmark, set_status
from tests.factories import SourceFactory
from tests.hints import SmallCatalog

pytestmark = pytest.mark.django_db


def test_one_bookmark_per_reader_and_source(reader: User, small_catalog: SmallCatalog) -> None:
    source = small_catalog["flash"]
    Bookmark.objects.create(user=reader, source=source)
    with pytest.raises(IntegrityError), transaction.atomic():
        Bookmark.objects.create(user=reader, source=source, status="read")


def test_status_outside_the_choices_is_refused_by_the_database(
    reader: User, small_catalog: SmallCatalog
) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        Bookmark.objects.create(user=reader, source=small_catalog["flash"], status="skimmed")


def test_a_saved_source_cannot_be_deleted(reader: User, small_catalog: SmallCatalog) -> None:
    source = small_catalog["flash"]
    set_status(user=reader, source=source, status="to_read")
    with pytest.raises(ProtectedError):
        source.delete()


def test_deleting_a_reader_deletes_their_bookmarks(
    reader: User, other_reader: User, small_catalog: SmallCatalog
) -> None:
    set_status(user=reader, source=small_catalog["flash"], status="read")
    set_status(user=other_reader, source=small_catalog["flash"], status="read")
    reader.delete()
    assert list(Bookmark.objects.values_list("user__email", flat=True)) == ["other@example.com"]


def test_dates_follow_the_status(reader: User, small_catalog: SmallCatalog) -> None:
    source = small_catalog["flash"]
    saved = set_status(user=reader, source=source, status="to_read")
    assert saved.started_at is None and saved.finished_at is None

    reading = set_status(user=reader, source=source, status="reading")
    assert reading.started_at is not None and reading.finished_at is None
    started = reading.started_at

    done = set_status(user=reader, source=source, status="read")
    assert done.started_at == started
    assert done.finished_at is not None and done.finished_at >= started
    assert done.saved_at == saved.saved_at

    again = set_status(user=reader, source=source, status="reading")
    assert again.finished_at is None and again.started_at == started

    back = set_status(user=reader, source=source, status="to_read")
    assert back.started_at is None and back.finished_at is None


def test_marking_read_straight_away_sets_both_dates(
    reader: User, small_catalog: SmallCatalog
) -> None:
    done = set_status(user=reader, source=small_catalog["flash"], status="read")
    assert done.started_at is not None and done.finished_at is not None


def test_double_submit_keeps_one_bookmark_and_its_dates(
    reader: User, small_catalog: SmallCatalog
) -> None:
    source = small_catalog["flash"]
    first = set_status(user=reader, source=source, status="read")
    second = set_status(user=reader, source=source, status="read")
    assert Bookmark.objects.filter(user=reader, source=source).count() == 1
    assert second.pk == first.pk
    assert second.finished_at == first.finished_at


def test_unknown_status_is_refused_before_writing(
    reader: User, small_catalog: SmallCatalog
) -> None:
    with pytest.raises(ValueError):
        set_status(user=reader, source=small_catalog["flash"], status="skimmed")
    assert not Bookmark.objects.exists()


def test_remove_is_idempotent(reader: User, small_catalog: SmallCatalog) -> None:
    source = small_catalog["flash"]
    set_status(user=reader, source=source, status="read")
    assert remove_bookmark(user=reader, source=source) is True
    assert remove_bookmark(user=reader, source=source) is False
    assert apply_action(user=reader, source=source, action="remove") is None


def test_bulk_changes_only_the_readers_own_bookmarks(
    reader: User, other_reader: User, small_catalog: SmallCatalog
) -> None:
    mine = [
        set_status(user=reader, source=source, status="to_read") for source in small_catalog["path"]
    ]
    theirs = set_status(user=other_reader, source=small_catalog["flash"], status="to_read")
    changed = bulk_apply(
        user=reader, bookmark_ids=[b.pk for b in mine] + [theirs.pk], action="read"
    )
    assert changed == 3
    assert set(Bookmark.objects.filter(user=reader).values_list("status", flat=True)) == {"read"}
    theirs.refresh_from_db()
    assert theirs.status == "to_read"
    assert all(b.finished_at for b in Bookmark.objects.filter(user=reader))


def test_bulk_remove(reader: User, small_catalog: SmallCatalog) -> None:
    mine = [set_status(user=reader, source=s, status="reading") for s in small_catalog["path"]]
    assert bulk_apply(user=reader, bookmark_ids=[mine[0].pk], action="remove") == 1
    assert Bookmark.objects.filter(user=reader).count() == 2


def test_sources_from_another_app_are_not_needed_to_read_states(reader: User) -> None:
    from library.reading import states_for

    source = SourceFactory()
    set_status(user=reader, source=source, status="reading")
    assert states_for(reader) == {source.pk: "reading"}
    assert states_for(reader, [source.pk + 1]) == {}


def test_a_bookmark_another_request_made_is_changed_not_duplicated(
    reader: User, small_catalog: SmallCatalog
) -> None:
    """The insert meets the row a concurrent request stored and changes it instead."""
    source = small_catalog["flash"]
    first = Bookmark.objects.create(user=reader, source=source, status="reading")
    bookmark = set_status(user=reader, source=source, status="read")
    assert bookmark.pk == first.pk and bookmark.status == "read"
    assert Bookmark.objects.filter(user=reader, source=source).count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_parallel_clicks_on_one_control_keep_one_bookmark(
    reader: User, small_catalog: SmallCatalog
) -> None:
    """Requests arriving at once for one source each find or make the same row, and its dates
    stay consistent with whichever status was written last."""
    source = small_catalog["flash"]
    statuses = ["to_read", "reading", "read"] * 4
    start = threading.Barrier(len(statuses))

    def click(status: str) -> str:
        try:
            start.wait()
            return set_status(user=reader, source=source, status=status).status
        finally:
            connection.close()

    with ThreadPoolExecutor(len(statuses)) as pool:
        assert sorted(pool.map(click, statuses)) == sorted(statuses)
    stored = Bookmark.objects.get(user=reader, source=source)
    assert (stored.started_at is None) == (stored.status == "to_read")
    assert (stored.finished_at is None) == (stored.status != "read")


def _columns_written(queries: list[dict[str, str]], verb: str) -> set[str]:
    table = Bookmark._meta.db_table
    (sql,) = [q["sql"] for q in queries if q["sql"].startswith(f'{verb} "{table}"')]
    head = sql.split("VALUES")[0] if verb == "INSERT INTO" else sql.split(" WHERE ")[0]
    return set(re.findall(r'"(\w+)"\s*(?:=|,|\))', head))


def test_a_click_writes_every_field_as_the_model_would(
    client: Client, reader: User, small_catalog: SmallCatalog
) -> None:
    """The click path stores what the model itself stores: every column, each field's default
    included, so a field added to Bookmark is set on a click too."""
    source = small_catalog["flash"]
    client.force_login(reader)
    columns = {f.column for f in Bookmark._meta.concrete_fields if not f.primary_key}
    with CaptureQueriesContext(connection) as inserted:
        client.post(f"/library/bookmarks/{source.slug}/", {"status": "reading"})
    assert _columns_written(inserted.captured_queries, "INSERT INTO") == columns
    stored = Bookmark.objects.get(user=reader, source=source)
    expected = Bookmark(user=reader, source=source, saved_at=stored.saved_at)
    _apply_dates(expected, Bookmark.Status.READING, stored.saved_at)
    expected.updated = stored.updated  # auto_now: the moment of the write
    for field in Bookmark._meta.concrete_fields:
        if not field.primary_key:
            assert field.value_from_object(stored) == field.value_from_object(expected), field.name

    with CaptureQueriesContext(connection) as changed:
        client.post(f"/library/bookmarks/{source.slug}/", {"status": "read"})
    assert _columns_written(changed.captured_queries, "UPDATE") == columns
    stored = Bookmark.objects.get(pk=stored.pk)
    assert (
        stored.status == "read" and stored.finished_at and stored.started_at == expected.started_at
    )


def test_a_click_sends_the_models_signals(reader: User, small_catalog: SmallCatalog) -> None:
    """Saves and removals go through the model, so every post_save and post_delete receiver
    hears them (the page cache's among them)."""
    heard = []

    def receiver(sender: type[Bookmark], instance: Bookmark, **kwargs: object) -> None:
        heard.append((kwargs.get("created"), instance.status))

    source = small_catalog["flash"]
    post_save.connect(receiver, sender=Bookmark, weak=False)
    post_delete.connect(receiver, sender=Bookmark, weak=False)
    try:
        set_status(user=reader, source=source, status="to_read")
        set_status(user=reader, source=source, status="read")
        set_status(user=reader, source=source, status="read")  # a repeat changes nothing
        remove_bookmark(user=reader, source=source)
    finally:
        post_save.disconnect(receiver, sender=Bookmark)
        post_delete.disconnect(receiver, sender=Bookmark)
    assert heard == [
        (True, "to_read"),
        (False, "read"),
        (None, "read"),
    ]
