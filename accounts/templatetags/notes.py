"""The seam through which catalog pages show notes: `{% load notes %}{% source_notes source %}`."""

from django import template
from django.urls import reverse

from ..models import Note
from ..note_forms import NoteForm

register = template.Library()


@register.inclusion_tag("accounts/notes/source_notes.html", takes_context=True)
def source_notes(context, source):
    """The reader's own and the team's notes on a source, newest first, in one query."""
    request = context["request"]
    user = request.user
    return {
        "request": request,
        "user": user,
        "csrf_token": context.get("csrf_token"),
        "source": source,
        "notes": list(Note.objects.on_source_for(user, source)),
        "form": NoteForm(prefix_id="note-new"),
        "action": reverse("notes:create", args=[source.slug]),
        "hx_target": "#note-add",
    }
