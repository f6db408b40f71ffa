"""Writes to notes. Keyword-only, one transaction each; the caller has checked ownership."""

from django.db import transaction
from django.utils import timezone

from .models import Note
from .note_querysets import PURGE_AFTER


def purge_deleted_notes(*, now=None):
    """Delete for good the notes deleted longer ago than the undo grace period."""
    cutoff = (now or timezone.now()) - PURGE_AFTER
    deleted, _ = Note.objects.deleted_before(cutoff).delete()
    return deleted


def note_create(*, user, source, body, quote="", locator="", visibility=Note.Visibility.PRIVATE):
    note = Note(
        user=user,
        source=source,
        body=body,
        quote=quote,
        locator=locator,
        visibility=visibility,
    )
    # Checked before the transaction opens: inside one, Django wraps each of the model's check
    # constraints in its own savepoint, three round trips each instead of one. The database
    # enforces the same constraints on save.
    note.full_clean()
    with transaction.atomic():
        purge_deleted_notes()
        note.save()
    return note


def note_update(*, note, body, quote, locator, visibility):
    note.body, note.quote, note.locator, note.visibility = body, quote, locator, visibility
    note.edited = timezone.now()
    note.full_clean()  # before the transaction, as in note_create
    with transaction.atomic():
        purge_deleted_notes()
        note.save()
    return note


@transaction.atomic
def note_delete(*, note):
    """Hide the note at once; it stays restorable until purged (see PURGE_AFTER)."""
    purge_deleted_notes()
    note.deleted_at = timezone.now()
    note.save(update_fields=["deleted_at"])
    return note


@transaction.atomic
def note_restore(*, note):
    note.deleted_at = None
    note.save(update_fields=["deleted_at"])
    return note
