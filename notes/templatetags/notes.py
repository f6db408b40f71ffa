"""The seam through which catalog pages show notes: `{% load notes %}{% source_notes source %}`."""

from collections.abc import Iterable
from typing import Any

from django import template
from django.template import Context
from django.urls import reverse

from catalog.models import Source
from catalog.querysets import private_audience
from library.reading import viewer_teams
from readinglist.pagecache import dont_store
from teams.models import Session, Team

from ..forms import NoteForm
from ..models import Note

register = template.Library()


@register.inclusion_tag("notes/source_notes.html", takes_context=True)
def source_notes(context: Context, source: Source) -> dict[str, Any]:
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
        # The page's team panels fetched the reader's teams already: the form reuses them.
        "form": (
            NoteForm(user=user, teams=viewer_teams(request), prefix_id="note-new")
            if user.is_authenticated
            else None
        ),
        "action": reverse("notes:create", args=[source.slug]),
        "hx_target": "#note-add",
    }


TEAM_PAGE_NOTES = 5


@register.inclusion_tag("notes/team_notes_block.html", takes_context=True)
def team_notes(context: Context, team: Team) -> dict[str, Any]:
    """A team's latest notes, for its page (the view has checked the reader is a member)."""
    notes = Note.objects.live().filter(team=team).for_display().newest()[:TEAM_PAGE_NOTES]
    return {
        "user": context["request"].user,
        "team": team,
        "notes": notes,
        "heading": "Team notes",
        "heading_id": "team-notes-heading",
        "empty": f"Nobody has shared a note with {team.name} yet.",
    }


@register.inclusion_tag("notes/team_notes_block.html", takes_context=True)
def session_discussion(
    context: Context, session: Session, sources: Iterable[Source]
) -> dict[str, Any]:
    """The session's discussion: its team's notes on the sources it reads."""
    notes = (
        Note.objects.live()
        .filter(team_id=session.team_id, source__in=[source.pk for source in sources])
        .for_display()
        .newest()
    )
    return {
        "user": context["request"].user,
        "team": session.team,
        "notes": notes,
        "heading": "Discussion",
        "heading_id": "discussion-heading",
        "empty": "No notes on these sources yet: share yours with the team on each source's page.",
    }


@register.inclusion_tag("notes/note_form.html#form", takes_context=True)
def quoted_note_form(context: Context, source: Source, quote: str) -> dict[str, Any]:
    """A new private note on `source` with `quote` filled in, for the bookmarklet's save page.
    It posts to the notes' own form address, which keeps everything typed on an error."""
    request = context["request"]
    teams = viewer_teams(request)
    audience = private_audience(source)
    if audience is not None:
        # A note on a team's own source is shared with that team or nobody.
        teams = [team for team in teams if team.pk in audience]
    form = NoteForm(
        user=request.user,
        teams=teams,
        initial={"quote": quote},
        prefix_id="note-quote",
    )
    return {
        "csrf_token": context.get("csrf_token"),
        "source": source,
        "note": None,
        "form": form,
        "action": reverse("notes:create", args=[source.slug]),
        "hx_target": "",
    }
