"""A reader's notes as one Markdown file or one JSON document, and as part of the library's
export (CSV and JSON of bookmarks with their notes)."""

from typing import Any

from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone

from accounts.models import User
from catalog.models import Source
from library.exports import Contribution, contribute

from .models import Note


def _note_fields(note: Note) -> dict[str, Any]:
    """What every export says of a note besides its source."""
    return {
        "quote": note.quote,
        "locator": note.locator,
        "body": note.body,
        "visibility": note.visibility,
        "team": _team_record(note),
        "created": note.created.isoformat(),
        "edited": note.edited.isoformat() if note.edited else None,
    }


def _note_record(note: Note, request: HttpRequest) -> dict[str, Any]:
    source = note.source
    return {
        "id": note.pk,
        "source": {
            "slug": source.slug,
            "title": source.title,
            "page": request.build_absolute_uri(source.get_absolute_url()),
            "url": source.url,
        },
        **_note_fields(note),
    }


def _team_record(note: Note) -> dict[str, str] | None:
    # A note without a team reads None from its field, with no query.
    team = note.team
    return {"slug": team.slug, "name": team.name} if team is not None else None


def notes_document(notes: QuerySet[Note], *, user: User, request: HttpRequest) -> dict[str, Any]:
    return {
        "exported": timezone.now().isoformat(),
        "reader": user.email,
        "notes": [_note_record(note, request) for note in notes],
    }


def _blockquote(text: str) -> str:
    return "\n".join(f"> {line}" if line else ">" for line in text.splitlines())


def notes_markdown(notes: QuerySet[Note], *, user: User, request: HttpRequest) -> str:
    now = timezone.localtime()
    lines = [
        "# Notes from readinglist",
        "",
        f"Exported {now:%Y-%m-%d %H:%M %Z} for {user.email}.",
        "",
    ]
    for note in notes:
        source = note.source
        lines += ["---", "", f"## {source.title}", ""]
        lines.append(f"- Catalog: <{request.build_absolute_uri(source.get_absolute_url())}>")
        if source.url:
            lines.append(f"- Source: <{source.url}>")
        if note.locator:
            lines.append(f"- Where: {note.locator}")
        shared = f"Team ({note.team.name})" if note.team is not None else "Private"
        lines.append(f"- Visibility: {shared}")
        written = f"- Written: {timezone.localtime(note.created):%Y-%m-%d %H:%M}"
        if note.edited:
            written += f", edited {timezone.localtime(note.edited):%Y-%m-%d %H:%M}"
        lines += [written, ""]
        if note.quote:
            lines += [_blockquote(note.quote), ""]
        lines += [note.body.rstrip(), ""]
    return "\n".join(lines)


def _exported_notes(user: User) -> QuerySet[Note]:
    return Note.objects.owned_by(user).select_related("source", "team").order_by("created", "pk")


def _library_record(note: Note) -> dict[str, Any]:
    return {"source": {"slug": note.source.slug, "title": note.source.title}, **_note_fields(note)}


def library_records(user: User, request: HttpRequest) -> list[dict[str, Any]]:
    return [_library_record(note) for note in _exported_notes(user)]


def library_texts(user: User) -> list[tuple[Source, str]]:
    return [(note.source, note.body.strip()) for note in _exported_notes(user)]


def contribute_to_library_exports() -> None:
    contribute(Contribution(name="notes", records=library_records, texts=library_texts))
