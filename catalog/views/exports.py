"""Downloads: the whole catalog as JSON, and citations of one source, a reading list or a search
result as BibTeX, CSL-JSON or RIS."""

import json
from collections.abc import Callable, Iterable

from django.http import HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_GET

from readinglist.requests import HtmxHttpRequest
from search.forms import SearchForm
from search.page import matching_sources

from ..citations import filename, to_bibtex, to_csl
from ..citations_ris import to_ris
from ..exports import catalog_document
from ..models import ReadingList, Source
from ..querysets import SourceQuerySet, each_once

# A search result can be the whole catalog; an export is capped so one request stays cheap.
MAX_EXPORTED = 1000
BIBTEX_TYPE = "application/x-bibtex; charset=utf-8"
CSL_TYPE = "application/vnd.citationstyles.csl+json; charset=utf-8"
RIS_TYPE = "application/x-research-info-systems; charset=utf-8"


def bibtex_response(sources: Iterable[Source], stem: str) -> HttpResponse:
    response = HttpResponse(to_bibtex(sources), content_type=BIBTEX_TYPE)
    response["Content-Disposition"] = f'attachment; filename="{filename(stem, "bib")}"'
    return response


def csl_response(sources: Iterable[Source], stem: str) -> HttpResponse:
    body = json.dumps(to_csl(sources), ensure_ascii=False, indent=2)
    response = HttpResponse(body, content_type=CSL_TYPE)
    response["Content-Disposition"] = f'attachment; filename="{filename(stem, "json")}"'
    return response


def ris_response(sources: Iterable[Source], stem: str) -> HttpResponse:
    response = HttpResponse(to_ris(sources), content_type=RIS_TYPE)
    response["Content-Disposition"] = f'attachment; filename="{filename(stem, "ris")}"'
    return response


RESPONSES: dict[str, Callable[[Iterable[Source], str], HttpResponse]] = {
    "bib": bibtex_response,
    "json": csl_response,
    "ris": ris_response,
}


@require_GET
def catalog_json(request: HtmxHttpRequest) -> JsonResponse:
    return JsonResponse(catalog_document(), json_dumps_params={"ensure_ascii": False})


def _citable() -> SourceQuerySet:
    return Source.objects.select_related("tier")


@require_GET
def source_citation(request: HtmxHttpRequest, slug: str, fmt: str) -> HttpResponse:
    source = get_object_or_404(_citable(), slug=slug)
    return RESPONSES[fmt]([source], source.slug)


def list_sources(reading_list: ReadingList) -> list[Source]:
    """A list's sources in the list's own order, each once."""
    sources = (
        _citable()
        .filter(entries__section__reading_list=reading_list)
        .order_by("entries__section__position", "entries__position")
    )
    return each_once(sources)


@require_GET
def list_citation(request: HtmxHttpRequest, slug: str, fmt: str) -> HttpResponse:
    reading_list = get_object_or_404(ReadingList, slug=slug)
    return RESPONSES[fmt](list_sources(reading_list), reading_list.slug)


@require_GET
def search_citation(request: HtmxHttpRequest, fmt: str) -> HttpResponse:
    form = SearchForm(request.GET)
    form.is_valid()  # an invalid year is dropped; every valid filter still applies
    return RESPONSES[fmt](matching_sources(form.params(), limit=MAX_EXPORTED), "readinglist-search")
