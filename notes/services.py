"""Writes to notes. Keyword-only, one transaction each; the caller has checked ownership."""

from datetime import datetime, timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import CheckConstraint
from django.utils import timezone

from accounts.models import User
from catalog.models import Source
from catalog.querysets import private_audience
from readinglist import pagecache
from teams.models import Membership, Team

from .models import Note
from .querysets import PURGE_AFTER

# Foreign keys whose rows the caller has loaded: full_clean() need not look them up again.
_LOADED_RELATIONS = ["user", "source"]


def _clean(note: Note) -> None:
    """The field checks, before the transaction opens. The model's check constraints are left
    to the database, which enforces them on save anyway: Django would ask it about each one in a
    query of its own (seven per save); a refusal is reported as they would be (_refused)."""
    note.full_clean(exclude=_LOADED_RELATIONS, validate_constraints=False)
    # A team's own source: its notes are shared with that team or nobody, so no other team's
    # pages ever name it.
    audience = private_audience(note.source)
    if audience is not None and note.team_id is not None and note.team_id not in audience:
        raise ValidationError(
            {"visibility": "A note on a team's own source is shared with that team only."}
        )


def _refused(error: IntegrityError) -> ValidationError | None:
    """The check constraint the database refused a note for, as full_clean() would report it."""
    for constraint in Note._meta.constraints:
        if isinstance(constraint, CheckConstraint) and constraint.name in str(error):
            return ValidationError(
                constraint.get_violation_error_message(), code=constraint.violation_error_code
            )
    return None


def _save(note: Note, *, new: bool) -> None:
    """Save in one transaction, after the hourly limit for a new note (see note_limit_problem)."""
    try:
        with transaction.atomic():
            if new:
                _lock_author(note.user)
                problem = note_limit_problem(note.user)
                if problem:
                    raise ValidationError(problem, code="limit")
            else:
                purge_deleted_notes()
            note.save()
    except IntegrityError as error:
        refused = _refused(error)
        if refused is None:
            raise
        raise refused from error


def purge_deleted_notes(*, now: datetime | None = None) -> int:
    """Delete for good the notes deleted longer ago than the undo grace period."""
    cutoff = (now or timezone.now()) - PURGE_AFTER
    deleted, _ = Note.objects.deleted_before(cutoff).delete()
    return deleted


def note_limit_problem(user: User, *, now: datetime | None = None) -> str:
    """Why `user` may not add a note now, or "".

    Team notes reach every member, so an account (and anyone who opens one while sign-up is
    open) may add at most NOTES_MAX_PER_HOUR an hour. Deleted notes count: deleting and adding
    again is still adding. Counted in the database, so every app process agrees.
    """
    limit = settings.NOTES_MAX_PER_HOUR
    since = (now or timezone.now()) - timedelta(hours=1)
    # Counted up to the limit: past it the answer is the same, and an account that adds
    # notes fast reads no more rows for it. Unordered: the model's ordering would make the
    # database sort every note of the hour before it could stop at the limit.
    recent = Note.objects.filter(user=user, created__gte=since).order_by()
    if recent[:limit].count() < limit:
        return ""
    return (
        f"You have added {limit} notes in the last hour, the most one account may. "
        "Your note is not lost: it is still in the form, so save it again a little later."
    )


def note_create(
    *,
    user: User,
    source: Source,
    body: str,
    quote: str = "",
    locator: str = "",
    visibility: str = Note.Visibility.PRIVATE,
    team: Team | None = None,
) -> Note:
    note = Note(user=user, source=source, body=body, quote=quote, locator=locator)
    _share(note, visibility, team)
    _clean(note)
    # Deleted notes are purged by edits and deletions (and hourly), not here: adding a note is
    # the write readers make most, and it leaves nothing to purge.
    _save(note, new=True)
    return note


def _lock_author(user: User) -> None:
    """Queue one account's concurrent note writes behind a row lock on the account.

    Without it, parallel requests all count the same committed notes and each finds room under
    the hourly limit. The lock is a statement of its own: the count after it reads with a fresh
    snapshot, which sees the note the previous holder committed; a count inside the locking
    statement would read with the snapshot taken before the wait, and let one note too many in.
    SQLite ignores the lock, but lets one transaction write at a time: a racing second writer
    is refused ("database is locked") rather than let past the limit.
    """
    list(User.objects.select_for_update().filter(pk=user.pk).values_list("pk"))


def _share(note: Note, visibility: str, team: Team | None) -> None:
    """Private, or shared with one of the author's own teams; anything else is refused."""
    if visibility == Note.Visibility.PRIVATE:
        team = None
    elif team is None or not Membership.objects.filter(team=team, user_id=note.user_id).exists():
        raise ValidationError("Share the note with one of your own teams.", code="team")
    note.visibility, note.team = visibility, team


def note_update(
    *,
    note: Note,
    body: str,
    quote: str,
    locator: str,
    visibility: str,
    team: Team | None = None,
) -> Note:
    note.body, note.quote, note.locator = body, quote, locator
    _share(note, visibility, team)
    note.edited = timezone.now()
    _clean(note)
    _save(note, new=False)
    return note


@transaction.atomic
def note_delete(*, note: Note) -> Note:
    """Hide the note at once; it stays restorable until purged (see PURGE_AFTER)."""
    purge_deleted_notes()
    note.deleted_at = timezone.now()
    note.save(update_fields=["deleted_at"])
    return note


@transaction.atomic
def note_restore(*, note: Note) -> Note:
    note.deleted_at = None
    note.save(update_fields=["deleted_at"])
    return note


def unshare_notes_of_former_member(*, team_id: int, user_id: int) -> int:
    """A reader who left or was removed from a team keeps their notes shared with it, private.

    A bulk update sends no signals, so the author's own pages are dropped here; the team's
    pages are dropped by the membership change itself.
    """
    changed = Note.objects.filter(team_id=team_id, user_id=user_id).update(
        team=None, visibility=Note.Visibility.PRIVATE
    )
    if changed:
        transaction.on_commit(lambda: pagecache.bump_reader_version(user_id))
    return changed
