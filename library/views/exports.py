"""Downloads of a reader's own data. Every view is for the signed-in reader and reads only their
rows; anonymous visitors are sent to log in and come back."""

from django.http import HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET

from accounts.requests import AuthenticatedHttpRequest
from catalog.citation_styles import STYLES, chosen_style, format_references
from catalog.citations import filename
from catalog.models import ReadingList
from catalog.views.exports import bibtex_response, csl_response, ris_response
from readinglist.views import login_required_htmx

from ..exports import library_csv, library_document, library_sources, reading_list_markdown
from ..models import Bookmark


def _attachment(response: HttpResponse, name: str) -> HttpResponse:
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def _stem() -> str:
    return f"readinglist-library-{timezone.localdate():%Y-%m-%d}"


@require_GET
@login_required_htmx
def export_index(request: AuthenticatedHttpRequest) -> HttpResponse:
    lists = ReadingList.objects.all()
    return render(request, "library/exports/index.html", {"lists": lists})


# Formatting is the slow part (milliseconds a reference); past this the files are the better tool.
MAX_FORMATTED = 200


@require_GET
@login_required_htmx
def export_cite(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The reader's saved sources (all, or those with one status) formatted in a citation style."""
    style, default = chosen_style(request.GET.get("style"), request.user)
    status = request.GET.get("status", "")
    if status not in Bookmark.Status.values:
        status = ""
    sources = library_sources(request.user, status)
    context = {
        "title": "your library",
        "back": reverse("library:export-index"),
        "back_label": "Export your library",
        "styles": STYLES.values(),
        "style": style,
        "default_style": default,
        "statuses": Bookmark.Status.choices,
        "status": status,
        "references": format_references(sources[:MAX_FORMATTED], style),
        "truncated": len(sources) > MAX_FORMATTED,
        "downloads": [
            ("BibTeX (.bib)", reverse("library:export-bibtex")),
            ("RIS (.ris)", reverse("library:export-ris")),
            ("CSL-JSON", reverse("library:export-csl")),
        ],
    }
    return render(request, "catalog/cite.html", context)


@require_GET
@login_required_htmx
def export_csv(request: AuthenticatedHttpRequest) -> HttpResponse:
    response = HttpResponse(
        library_csv(request.user, request), content_type="text/csv; charset=utf-8"
    )
    return _attachment(response, filename(_stem(), "csv"))


@require_GET
@login_required_htmx
def export_json(request: AuthenticatedHttpRequest) -> HttpResponse:
    response = JsonResponse(
        library_document(request.user, request),
        json_dumps_params={"ensure_ascii": False, "indent": 2},
    )
    return _attachment(response, filename(_stem(), "json"))


@require_GET
@login_required_htmx
def export_bibtex(request: AuthenticatedHttpRequest) -> HttpResponse:
    return bibtex_response(library_sources(request.user), _stem())


@require_GET
@login_required_htmx
def export_csl(request: AuthenticatedHttpRequest) -> HttpResponse:
    return csl_response(library_sources(request.user), _stem() + "-csl")


@require_GET
@login_required_htmx
def export_ris(request: AuthenticatedHttpRequest) -> HttpResponse:
    return ris_response(library_sources(request.user), _stem())


@require_GET
@login_required_htmx
def list_markdown(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    reading_list = get_object_or_404(ReadingList, slug=slug)
    response = HttpResponse(
        reading_list_markdown(reading_list, request.user, request),
        content_type="text/markdown; charset=utf-8",
    )
    return _attachment(response, filename(reading_list.slug, "md"))
