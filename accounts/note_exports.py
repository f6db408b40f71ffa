"""A reader's notes as one Markdown file or one JSON document."""

from django.utils import timezone


def _note_record(note, request):
    source = note.source
    return {
        "id": note.pk,
        "source": {
            "slug": source.slug,
            "title": source.title,
            "page": request.build_absolute_uri(source.get_absolute_url()),
            "url": source.url,
        },
        "quote": note.quote,
        "locator": note.locator,
        "body": note.body,
        "visibility": note.visibility,
        "created": note.created.isoformat(),
        "edited": note.edited.isoformat() if note.edited else None,
    }


def notes_document(notes, *, user, request):
    return {
        "exported": timezone.now().isoformat(),
        "reader": user.email,
        "notes": [_note_record(note, request) for note in notes],
    }


def _blockquote(text):
    return "\n".join(f"> {line}" if line else ">" for line in text.splitlines())


def notes_markdown(notes, *, user, request):
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
        lines.append(f"- Visibility: {note.get_visibility_display().split(' (')[0]}")
        written = f"- Written: {timezone.localtime(note.created):%Y-%m-%d %H:%M}"
        if note.edited:
            written += f", edited {timezone.localtime(note.edited):%Y-%m-%d %H:%M}"
        lines += [written, ""]
        if note.quote:
            lines += [_blockquote(note.quote), ""]
        lines += [note.body.rstrip(), ""]
    return "\n".join(lines)
