"""/library/import/: upload a BibTeX, RIS or CSL-JSON file, preview the matches, then confirm.

Nothing is written before the reader confirms. The preview's parsed entries wait in the session
(never in the page, where they could be altered) and are matched again on confirmation, since the
catalog or the library may have changed in between.
"""

import secrets
from urllib.parse import urlencode

from django import forms
from django.conf import settings
from django.contrib import messages
from django.core.files.uploadedfile import UploadedFile
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from accounts.requests import AuthenticatedHttpRequest
from readinglist import ratelimits
from readinglist.views import login_required_htmx

from ..imports.entries import MAX_BYTES, ImportEntry, ImportRefused, read_upload
from ..imports.matching import match_entries, skip_bad_urls
from ..imports.parsing import parse
from ..imports.services import add_matches
from ..models import Bookmark

SESSION_KEY = "library_import"
IMPORTS_USED = (
    "You have imported {limit} file{s} in the last hour, the most one account may. "
    "Try again in {wait}."
)


class UploadForm(forms.Form):
    file = forms.FileField(
        label="BibTeX, RIS or CSL-JSON file",
        help_text="From Zotero: File → Export Library… → BibTeX, RIS or CSL JSON; from EndNote "
        "or Mendeley: export as RIS. At most 5 MB and 2,000 entries.",
        widget=forms.ClearableFileInput(attrs={"accept": ".bib,.bibtex,.ris,.json,.txt"}),
    )


class ConfirmForm(forms.Form):
    token = forms.CharField(widget=forms.HiddenInput)
    status = forms.ChoiceField(
        label="Add the matched sources as",
        choices=Bookmark.Status.choices,
        initial=Bookmark.Status.TO_READ,
    )


def propose_link(entry: ImportEntry) -> str:
    url = entry.url or (
        f"https://arxiv.org/abs/{entry.arxiv}"
        if entry.arxiv
        else (f"https://doi.org/{entry.doi}" if entry.doi else "")
    )
    params: dict[str, str | int] = {
        "url": url,
        "title": entry.title,
        "authors": entry.authors,
        "kind": entry.kind,
    }
    if entry.year:
        params["year"] = entry.year
    query = urlencode({name: value for name, value in params.items() if value})
    return f"{reverse('proposals:propose')}?{query}"


def _parse_upload(upload: UploadedFile) -> tuple[list[ImportEntry], list[str]]:
    size = upload.size or 0  # the form's FileField refused an upload without one (empty)
    if size > MAX_BYTES:
        megabytes = size / 1024 / 1024
        raise ImportRefused(f"The file is {megabytes:.1f} MB; at most 5 MB can be imported.")
    entries, problems = parse(read_upload(upload.read()), upload.name or "")
    entries, bad_urls = skip_bad_urls(entries)
    return entries, problems + bad_urls


def _preview(
    request: AuthenticatedHttpRequest,
    entries: list[ImportEntry],
    problems: list[str],
    filename: str,
) -> HttpResponse:
    token = secrets.token_urlsafe(16)
    request.session[SESSION_KEY] = {
        "token": token,
        "filename": filename[:200],
        "entries": [entry.as_dict() for entry in entries],
    }
    matches = match_entries(request.user, entries)
    context = {
        "matched": [m for m in matches if m.source is not None],
        "unmatched": [(m.entry, propose_link(m.entry)) for m in matches if m.source is None],
        "new_count": len({m.source.pk for m in matches if m.is_new and m.source is not None}),
        "problems": problems,
        "filename": filename,
        "form": ConfirmForm(initial={"token": token}),
    }
    return render(request, "library/import_preview.html", context)


@login_required_htmx
@require_http_methods(["GET", "POST"])
def import_library(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = UploadForm(request.POST or None, request.FILES or None)
    refusal = None
    if request.method == "POST" and form.is_valid():
        limit = settings.LIBRARY_IMPORTS_PER_HOUR
        refusal = ratelimits.consume(user_id=request.user.pk, action="library.import", limit=limit)
        upload = form.cleaned_data["file"]
        try:
            if refusal:
                raise ImportRefused(refusal.explain(IMPORTS_USED))
            entries, problems = _parse_upload(upload)
        except ImportRefused as refused:
            form.add_error("file", str(refused))
        else:
            return _preview(request, entries, problems, upload.name or "")
    status = 429 if refusal else 400 if form.errors else 200
    response = render(request, "library/import.html", {"form": form}, status=status)
    if refusal:
        response["Retry-After"] = str(refusal.retry_after)
    return response


@login_required_htmx
@require_POST
def confirm_import(request: AuthenticatedHttpRequest) -> HttpResponse:
    stored = request.session.get(SESSION_KEY) or {}
    form = ConfirmForm(request.POST)
    if not form.is_valid() or not secrets.compare_digest(
        stored.get("token", ""), form.cleaned_data.get("token", "")
    ):
        messages.error(request, "That preview is no longer current: upload the file again.")
        return redirect("library:import")
    entries = [ImportEntry.from_dict(data) for data in stored.get("entries", [])]
    matches = match_entries(request.user, entries)
    added = add_matches(user=request.user, matches=matches, status=form.cleaned_data["status"])
    del request.session[SESSION_KEY]
    kept = sum(1 for m in matches if m.existing_status)
    messages.success(
        request,
        ngettext(
            "Added %(count)d source to your library",
            "Added %(count)d sources to your library",
            added,
        )
        % {"count": added}
        + (
            ngettext(
                "; %(count)d already there kept its status.",
                "; %(count)d already there kept their status.",
                kept,
            )
            % {"count": kept}
            if kept
            else "."
        ),
    )
    return redirect("library:index")
