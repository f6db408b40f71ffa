"""Notes: storage, constraints, services, read rules and search."""

from datetime import timedelta
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.db import DataError, IntegrityError, connection, transaction
from django.utils import timezone

from accounts.models import User
from notes.models import Note
from notes.querysets import PURGE_AFTER, UNDO_WINDOW
from notes.services import (
    note_create,
    note_delete,
    note_restore,
    note_update,
    purge_deleted_notes,
)
from tests.factories import NoteFactory, SourceFactory, TopicFactory, UserFactory, first_team_of
from tests.hints import SmallCatalog

pytestmark = pytest.mark.django_db


def test_body_is_rendered_once_on_save_and_stored(reader: User) -> None:
    note = NoteFactory(user=reader, body="**bold** <script>x</script>")
    stored = Note.objects.values_list("body_html", flat=True).get(pk=note.pk)
    assert stored == "<p><strong>bold</strong> &lt;script&gt;x&lt;/script&gt;</p>\n"


def test_saving_only_other_fields_keeps_the_rendered_body(reader: User) -> None:
    note = NoteFactory(user=reader, body="*one*")
    note.deleted_at = timezone.now()
    note.save(update_fields=["deleted_at"])
    assert Note.objects.get(pk=note.pk).body_html == "<p><em>one</em></p>\n"


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("body", ""),
        ("body", "x" * (Note.BODY_MAX + 1)),
        ("quote", "q" * (Note.QUOTE_MAX + 1)),
        ("locator", "l" * (Note.LOCATOR_MAX + 1)),
        ("visibility", "everyone"),
    ],
)
def test_database_refuses_invalid_notes(reader: User, field: str, value: str) -> None:
    source = SourceFactory()
    note = Note(user=reader, source=source, body="fine")
    setattr(note, field, value)
    # PostgreSQL's varchar refuses an over-long locator before the check constraint is reached.
    with pytest.raises((IntegrityError, DataError)), transaction.atomic():
        note.save()


def test_database_allows_notes_at_the_limits(reader: User) -> None:
    note = NoteFactory(
        user=reader,
        body="x" * Note.BODY_MAX,
        quote="q" * Note.QUOTE_MAX,
        locator="l" * Note.LOCATOR_MAX,
    )
    assert Note.objects.filter(pk=note.pk).exists()


def test_a_source_with_notes_cannot_be_deleted(reader: User) -> None:
    note = NoteFactory(user=reader)
    with pytest.raises(Exception, match="protected"), transaction.atomic():
        note.source.delete()


def test_create_validates(reader: User) -> None:
    with pytest.raises(ValidationError):
        note_create(user=reader, source=SourceFactory(), body="", visibility="private")


@pytest.mark.parametrize(
    ("field", "constraint"),
    [("body", "note_body_max_length"), ("quote", "note_quote_max_length")],
)
def test_a_constraint_the_database_refuses_is_reported_as_full_clean_would(
    reader: User, field: str, constraint: str
) -> None:
    """Services leave check constraints to the insert; a refusal is a ValidationError with the
    constraint's message, and nothing is stored."""
    too_long = "x" * ((Note.BODY_MAX if field == "body" else Note.QUOTE_MAX) + 1)
    fields: dict[str, Any] = {"body": "fine", field: too_long}
    with pytest.raises(ValidationError) as refused:
        note_create(user=reader, source=SourceFactory(), visibility="private", **fields)
    assert refused.value.messages == [f"Constraint “{constraint}” is violated."]
    assert not Note.objects.exists()


def test_update_records_the_edit_time(reader: User) -> None:
    note = note_create(user=reader, source=SourceFactory(), body="first")
    assert note.edited is None
    team = first_team_of(reader)
    note_update(
        note=note, body="second *take*", quote="", locator="p. 3", visibility="team", team=team
    )
    note.refresh_from_db()
    assert note.edited is not None and note.edited >= note.created
    assert note.body_html == "<p>second <em>take</em></p>\n"
    assert (note.visibility, note.team) == ("team", team)


def test_delete_hides_at_once_and_restore_brings_back(reader: User) -> None:
    note = NoteFactory(user=reader, visibility="team")
    note_delete(note=note)
    assert not Note.objects.visible_to(reader).exists()
    assert not Note.objects.shared_with_teams_of(reader).exists()
    assert Note.objects.restorable_by(reader).get() == note
    note_restore(note=note)
    assert Note.objects.visible_to(reader).get() == note


@pytest.mark.parametrize("write", ["delete", "edit"])
def test_deleted_notes_are_purged_after_a_minute_on_the_next_deletion_or_edit(
    reader: User, write: str
) -> None:
    old = NoteFactory(user=reader)
    recent = NoteFactory(user=reader)
    Note.objects.filter(pk=old.pk).update(deleted_at=timezone.now() - PURGE_AFTER - timedelta(1))
    Note.objects.filter(pk=recent.pk).update(deleted_at=timezone.now())
    note_create(user=reader, source=SourceFactory(), body="a new note")
    assert Note.objects.filter(pk=old.pk).exists()  # adding a note purges nothing
    other = NoteFactory(user=reader)
    if write == "delete":
        note_delete(note=other)
    else:
        note_update(note=other, body="edited", quote="", locator="", visibility="private")
    assert not Note.objects.filter(pk=old.pk).exists()
    assert Note.objects.filter(pk=recent.pk).exists()


def test_purged_notes_cannot_be_restored(reader: User) -> None:
    note = NoteFactory(user=reader)
    Note.objects.filter(pk=note.pk).update(deleted_at=timezone.now() - PURGE_AFTER * 2)
    assert not Note.objects.restorable_by(reader).exists()


def test_purge_command(reader: User) -> None:
    note = NoteFactory(user=reader)
    Note.objects.filter(pk=note.pk).update(deleted_at=timezone.now() - PURGE_AFTER * 2)
    call_command("purge_deleted_notes", verbosity=0)
    assert not Note.objects.filter(pk=note.pk).exists()
    assert purge_deleted_notes() == 0


def test_source_page_rule_is_own_plus_team_newest_first(reader: User, other_reader: User) -> None:
    source = SourceFactory()
    now = timezone.now()
    mine = NoteFactory(user=reader, source=source, created=now - timedelta(minutes=3))
    theirs_team = NoteFactory(
        user=other_reader, source=source, visibility="team", created=now - timedelta(minutes=1)
    )
    NoteFactory(user=other_reader, source=source, visibility="private")
    NoteFactory(user=reader, visibility="team")  # another source
    just_deleted = NoteFactory(user=reader, source=source, created=now - timedelta(minutes=2))
    note_delete(note=just_deleted)
    long_deleted = NoteFactory(user=reader, source=source)
    Note.objects.filter(pk=long_deleted.pk).update(deleted_at=now - UNDO_WINDOW * 2)
    theirs_deleted = NoteFactory(user=other_reader, source=source, visibility="team")
    note_delete(note=theirs_deleted)

    shown = list(Note.objects.on_source_for(reader, source))
    assert shown == [theirs_team, just_deleted, mine]


def test_search_matches_body_quote_locator_and_source_title(reader: User) -> None:
    flash = SourceFactory(title="FlashAttention")
    other = SourceFactory(title="Roofline")
    by_body = NoteFactory(user=reader, source=other, body="tiling keeps the working set in SRAM")
    by_quote = NoteFactory(user=reader, source=other, body="x", quote="online softmax rescaling")
    by_title = NoteFactory(user=reader, source=flash, body="read twice")
    by_locator = NoteFactory(user=reader, source=other, body="y", locator="Figure 7 appendix")
    notes = Note.objects.owned_by(reader)
    assert list(notes.search("SRAM")) == [by_body]
    assert list(notes.search("softmax")) == [by_quote]
    assert list(notes.search("flashattention")) == [by_title]
    assert list(notes.search("appendix")) == [by_locator]
    assert list(notes.search("tiling SRAM")) == [by_body]
    assert list(notes.search("tiling roofline")) == [by_body]
    assert not notes.search("tiling absent").exists()
    assert notes.search("  ").count() == 4


@pytest.mark.skipif(connection.vendor != "postgresql", reason="stemming needs PostgreSQL")
@pytest.mark.postgres
def test_postgres_search_stems_words(reader: User) -> None:
    note = NoteFactory(user=reader, body="The kernels were fused.")
    assert list(Note.objects.owned_by(reader).search("kernel fusing")) == [note]


def test_filters_by_topic_list_and_visibility(reader: User, small_catalog: SmallCatalog) -> None:
    flash = small_catalog["flash"]
    roofline = small_catalog["path"][2]
    kernels, attention = small_catalog["topics"]
    on_flash = NoteFactory(user=reader, source=flash, visibility="team")
    on_roofline = NoteFactory(user=reader, source=roofline)
    unlisted = NoteFactory(user=reader, source=SourceFactory(topics=[TopicFactory()]))
    notes = Note.objects.owned_by(reader)
    # A topic includes its sub-topics: FlashAttention is filed under attention, in kernels.
    assert set(notes.filtered(topic=kernels)) == {on_flash, on_roofline}
    assert set(notes.filtered(topic=attention)) == {on_flash}
    assert set(notes.filtered(list=small_catalog["list"])) == {on_flash, on_roofline}
    assert set(notes.filtered(visibility="private")) == {on_roofline, unlisted}
    assert set(notes.filtered(visibility="team", topic=kernels)) == {on_flash}


def test_visitors_and_strangers_see_nothing_private(reader: User, other_reader: User) -> None:
    from django.contrib.auth.models import AnonymousUser

    NoteFactory(user=reader)
    assert not Note.objects.visible_to(AnonymousUser()).exists()
    assert not Note.objects.visible_to(other_reader).exists()
    assert not Note.objects.owned_by(UserFactory()).exists()
