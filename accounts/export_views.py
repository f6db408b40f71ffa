"""Downloads of a reader's own data. Every view is for the signed-in reader and reads only their
rows; anonymous visitors are sent to log in and come back."""

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.views.decorators.http import require_GET

from catalog.citations import filename
from catalog.models import ReadingList
from catalog.views.exports import bibtex_response, csl_response

from .exports import library_csv, library_document, library_sources, reading_list_markdown


def _attachment(response, name):
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def _stem():
    return f"readinglist-library-{timezone.localdate():%Y-%m-%d}"


@require_GET
@login_required
def export_index(request):
    lists = ReadingList.objects.all()
    return render(request, "accounts/exports/index.html", {"lists": lists})


@require_GET
@login_required
def export_csv(request):
    response = HttpResponse(
        library_csv(request.user, request), content_type="text/csv; charset=utf-8"
    )
    return _attachment(response, filename(_stem(), "csv"))


@require_GET
@login_required
def export_json(request):
    response = JsonResponse(
        library_document(request.user, request),
        json_dumps_params={"ensure_ascii": False, "indent": 2},
    )
    return _attachment(response, filename(_stem(), "json"))


@require_GET
@login_required
def export_bibtex(request):
    return bibtex_response(library_sources(request.user), _stem())


@require_GET
@login_required
def export_csl(request):
    return csl_response(library_sources(request.user), _stem() + "-csl")


@require_GET
@login_required
def list_markdown(request, slug):
    reading_list = get_object_or_404(ReadingList, slug=slug)
    response = HttpResponse(
        reading_list_markdown(reading_list, request.user, request),
        content_type="text/markdown; charset=utf-8",
    )
    return _attachment(response, filename(reading_list.slug, "md"))
