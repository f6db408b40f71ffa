"""Notes on sources: add, edit, delete and undo in place (HTMX) or as plain pages; lists; export.

Ownership is a queryset, not an `if`: a note outside `owned_by(user)` or `visible_to(user)` does
not exist for this reader (404), whether it is someone else's private note or a teammate's.
"""

import functools
import json
import secrets
from typing import Any, cast

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import get_template
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from accounts.models import User
from accounts.requests import AuthenticatedHttpRequest
from catalog.models import Source
from catalog.source_refs import source_for_write
from readinglist.pagecache import page_cache
from readinglist.requests import HtmxHttpRequest
from readinglist.views import login_required_htmx
from teams.models import Team

from .exports import notes_document, notes_markdown
from .forms import NoteFilterForm, NoteForm
from .models import Note
from .paging import peek_page
from .querysets import NoteQuerySet
from .services import note_create, note_delete, note_restore, note_update

NOTES_PAGE_SIZE = 25
FORM_TEMPLATE = "notes/note_form.html"
NOTE_TEMPLATE = "notes/note.html"


def _source_page(note_or_source: Note | Source, anchor: str = "source-notes") -> str:
    source = note_or_source.source if isinstance(note_or_source, Note) else note_or_source
    return f"{source.get_absolute_url()}#{anchor}"


def _form_context(
    request: HtmxHttpRequest, *, source: Source, form: NoteForm, note: Note | None = None
) -> dict[str, Any]:
    if note:
        action, hx_target = reverse("notes:edit", args=[note.pk]), f"#note-{note.pk}"
    else:
        action, hx_target = reverse("notes:create", args=[source.slug]), "#note-add"
    return {
        "source": source,
        "note": note,
        "form": form,
        "action": action,
        "hx_target": hx_target if request.htmx else "",
    }


# Stands in for the visitor's CSRF token in a remembered form: random per process.
_TOKEN_SLOT = secrets.token_hex(32)


@functools.lru_cache(maxsize=512)
def _add_form_html(action: str, teams: tuple[tuple[int, str, str], ...]) -> str:
    """The empty "Add a note" form (htmx), rendered from its template: it shows nothing but the
    source's form address and the author's teams, so a remembered copy cannot go stale."""
    shown = [Team(pk=pk, slug=slug, name=name) for pk, slug, name in teams]
    # The form asks for the author's teams only when it is not given them: no author is needed.
    form = NoteForm(user=User(), teams=shown, prefix_id="note-new")
    context = {"form": form, "action": action, "hx_target": "#note-add", "csrf_token": _TOKEN_SLOT}
    return get_template(f"{FORM_TEMPLATE}#add").render(context)


def _blank_add_form(request: HttpRequest, source: Source, teams: list[Team]) -> SafeString:
    """The form a saved note is replaced by, remembered per process (rendering a form's fields
    cost more than the rest of the request), with this request's CSRF token put in."""
    render = _add_form_html.__wrapped__ if settings.DEBUG else _add_form_html
    html = render(
        reverse("notes:create", args=[source.slug]),
        tuple((team.pk, team.slug, team.name) for team in teams),
    )
    return mark_safe(html.replace(_TOKEN_SLOT, get_token(request)))


@vary_on_headers("HX-Request")
@login_required_htmx
@require_http_methods(["GET", "POST"])
def note_create_view(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    # The form and the note show the source's title and link to it by slug: nothing else is read.
    source = source_for_write(slug, request.user)
    form = NoteForm(request.POST or None, user=request.user, prefix_id="note-new")
    note = None
    if request.method == "POST" and form.is_valid():
        try:
            note = note_create(user=request.user, source=source, **form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
    if note:
        if not request.htmx:
            messages.success(request, "Note saved.")
            return redirect(_source_page(note, f"note-{note.pk}"))
        context = {"created": note, "add_form": _blank_add_form(request, source, form.teams)}
        return render(request, f"{FORM_TEMPLATE}#created", context)
    context = _form_context(request, source=source, form=form)
    if request.htmx:
        return render(request, f"{FORM_TEMPLATE}#add", context)
    return render(request, FORM_TEMPLATE, context)


@vary_on_headers("HX-Request")
@login_required_htmx
@require_GET
def note_detail_view(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    note = get_object_or_404(Note.objects.visible_to(request.user).for_display(), pk=pk)
    if request.htmx:
        # Cancelling an edit: keyboard focus goes back to the note the form replaced.
        return render(request, f"{NOTE_TEMPLATE}#note", {"note": note, "answer": ""})
    return render(request, NOTE_TEMPLATE, {"note": note})


@vary_on_headers("HX-Request")
@login_required_htmx
@require_http_methods(["GET", "POST"])
def note_edit_view(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    note = get_object_or_404(Note.objects.owned_by(request.user).for_display(), pk=pk)
    form = NoteForm(
        request.POST or None, user=request.user, instance=note, prefix_id=f"note-{note.pk}"
    )
    if request.method == "POST" and form.is_valid():
        try:
            note = note_update(note=note, **form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            if not request.htmx:
                messages.success(request, "Note saved.")
                return redirect(_source_page(note, f"note-{note.pk}"))
            return render(request, f"{NOTE_TEMPLATE}#note", {"note": note, "answer": "Note saved."})
    if request.method == "POST":
        # The failed form changed the instance in memory; the page shows the saved note's source.
        note.refresh_from_db(fields=["body", "quote", "locator", "visibility", "team"])
    context = _form_context(request, source=note.source, form=form, note=note)
    if request.htmx:
        return render(request, f"{FORM_TEMPLATE}#edit", context)
    return render(request, FORM_TEMPLATE, context)


@vary_on_headers("HX-Request")
@login_required_htmx
@require_http_methods(["GET", "POST"])
def note_delete_view(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    note = get_object_or_404(Note.objects.owned_by(request.user).for_display(), pk=pk)
    if request.method == "GET":
        # Without JavaScript, deleting asks on its own page (htmx asks with hx-confirm).
        return render(request, "notes/note_delete.html", {"note": note})
    note_delete(note=note)
    if request.htmx:
        return render(request, f"{NOTE_TEMPLATE}#deleted", {"note": note})
    messages.success(request, "Note deleted. You can undo this for a few seconds.")
    return redirect(_source_page(note, f"note-{note.pk}"))


@vary_on_headers("HX-Request")
@login_required_htmx
@require_POST
def note_restore_view(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    note = get_object_or_404(Note.objects.restorable_by(request.user).for_display(), pk=pk)
    note_restore(note=note)
    if request.htmx:
        return render(request, f"{NOTE_TEMPLATE}#note", {"note": note, "answer": "Note restored."})
    messages.success(request, "Note restored.")
    return redirect(_source_page(note, f"note-{note.pk}"))


@page_cache(reader=True, params={*NoteFilterForm.base_fields, "page"})
@vary_on_headers("HX-Request")
@login_required_htmx
@require_GET
def my_notes_view(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = NoteFilterForm(request.GET or None)
    notes = Note.objects.owned_by(request.user).filtered(**form.filters()).for_display().newest()
    page = Paginator(notes, NOTES_PAGE_SIZE).get_page(request.GET.get("page"))
    template = "notes/my_notes.html"
    if request.htmx:
        template += "#results"
    return render(request, template, {"form": form, "page": page})


@login_required_htmx
@require_GET
def export_markdown_view(request: AuthenticatedHttpRequest) -> HttpResponse:
    notes = _export_notes(request.user)
    text = notes_markdown(notes, user=request.user, request=request)
    return _attachment(text, "text/markdown; charset=utf-8", "md")


@login_required_htmx
@require_GET
def export_json_view(request: AuthenticatedHttpRequest) -> HttpResponse:
    notes = _export_notes(request.user)
    document = notes_document(notes, user=request.user, request=request)
    text = json.dumps(document, ensure_ascii=False, indent=2)
    return _attachment(text, "application/json", "json")


def _export_notes(user: User) -> QuerySet[Note]:
    return (
        Note.objects.owned_by(user)
        .select_related("source", "team")
        .order_by("source__title", "created")
    )


def _attachment(text: str, content_type: str, extension: str) -> HttpResponse:
    filename = f"readinglist-notes-{timezone.localdate():%Y-%m-%d}.{extension}"
    response = HttpResponse(text, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _with_display_rows(shown: QuerySet[Note]) -> QuerySet[Note]:
    # peek_page hands back the model's default manager's queryset, which is a NoteQuerySet.
    return cast(NoteQuerySet, shown).for_display()


@page_cache(reader=True, team=True, params={"team", "page"})
@vary_on_headers("HX-Request")
@login_required_htmx
@require_GET
def team_notes_view(request: AuthenticatedHttpRequest) -> HttpResponse:
    teams = list(Team.objects.filter(members=request.user))
    chosen = None
    if request.GET.get("team"):
        # A team the reader is not in does not exist for them.
        chosen = next((team for team in teams if team.slug == request.GET["team"]), None)
        if chosen is None:
            raise Http404("No team here.")
    # By the ids of the teams just read, which the planner can estimate (a membership subquery
    # it could not, and joined every shared note with its author and source); only the page's
    # notes are joined (see peek_page).
    notes = Note.objects.shared_with_teams([chosen] if chosen else teams)
    page = peek_page(
        notes.newest(),
        request.GET.get("page"),
        NOTES_PAGE_SIZE,
        display=_with_display_rows,
    )
    template = "notes/team_notes.html"
    if request.htmx:
        template += "#results"
    return render(request, template, {"page": page, "teams": teams, "chosen": chosen})
