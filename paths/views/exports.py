"""A path's downloads: Markdown, BibTeX and CSL-JSON, in path order, for whoever may see the
path (anyone else gets 404)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_GET

from catalog.citations import filename
from catalog.views.exports import bibtex_response, csl_response

from ..exports import path_markdown, path_sources
from ..models import Path


def _path(request: HttpRequest, key: str) -> Path:
    return get_object_or_404(Path.objects.visible_to(request.user), key=key)


def _stem(path: Path) -> str:
    return f"path-{path.title}"[:80]


@require_GET
def export_markdown(request: HttpRequest, key: str) -> HttpResponse:
    path = _path(request, key)
    text = path_markdown(path, request)
    response = HttpResponse(text, content_type="text/markdown; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename(_stem(path), "md")}"'
    return response


@require_GET
def export_bibtex(request: HttpRequest, key: str) -> HttpResponse:
    path = _path(request, key)
    return bibtex_response(path_sources(path), _stem(path))


@require_GET
def export_csl(request: HttpRequest, key: str) -> HttpResponse:
    path = _path(request, key)
    return csl_response(path_sources(path), _stem(path) + "-csl")
