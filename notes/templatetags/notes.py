"""The seam through which catalog pages show notes: `{% load notes %}{% source_notes source %}`."""

from django import template
from django.urls import reverse

from readinglist.pagecache import dont_store

from ..forms import NoteForm
from ..models import Note

register = template.Library()


@register.inclusion_tag("notes/source_notes.html", takes_context=True)
def source_notes(context, source):
    """The reader's own and the team's notes on a source, newest first, in one query."""
    request = context["request"]
    user = request.user
    notes = list(Note.objects.on_source_for(user, source))
    if any(note.is_deleted for note in notes):
        # The "Undo" of a note deleted seconds ago goes away by itself after UNDO_WINDOW, with
        # no write to mark it: a page showing it must not be kept in the page cache.
        dont_store(request)
    return {
        "request": request,
        "user": user,
        "csrf_token": context.get("csrf_token"),
        "source": source,
        "notes": notes,
        "form": NoteForm(prefix_id="note-new"),
        "action": reverse("notes:create", args=[source.slug]),
        "hx_target": "#note-add",
    }
