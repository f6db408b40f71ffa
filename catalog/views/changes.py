from django.conf import settings
from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET
from django.views.decorators.vary import vary_on_headers

from readinglist.requests import HtmxHttpRequest

from ..changelog_forms import ChangeFilterForm
from ..models import ChangeLogEntry


@require_GET
@vary_on_headers("HX-Request")
def change_log(request: HtmxHttpRequest) -> HttpResponse:
    """The whole change log, newest first, filtered by kind."""
    form = ChangeFilterForm(request.GET)
    kind = form.kind_or_all()
    entries = ChangeLogEntry.objects.of_kind(kind).for_display()
    page = Paginator(entries, settings.CATALOG_PAGE_SIZE).get_page(request.GET.get("page"))
    template = "catalog/changes.html"
    if request.htmx and not request.htmx.history_restore_request:
        template += "#log"
    return render(request, template, {"form": form, "page": page, "kind": kind})
