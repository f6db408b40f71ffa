"""A source's reference formatted in a citation style, to read and copy."""

from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_GET

from readinglist.pagecache import page_cache
from readinglist.requests import HtmxHttpRequest

from ..citation_styles import STYLES, format_references, style_or_default
from ..models import Source


@page_cache(shared=True, params={"style"})
@require_GET
def source_cite(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    source = get_object_or_404(Source.objects.select_related("tier"), slug=slug)
    # An unknown style falls back to the default rather than an error: the address may be old.
    style = style_or_default(request.GET.get("style"))
    downloads = [
        (label, reverse("catalog:source-cite", args=[source.slug, fmt]))
        for label, fmt in (("BibTeX (.bib)", "bib"), ("RIS (.ris)", "ris"), ("CSL-JSON", "json"))
    ]
    context = {
        "title": source.title,
        "back": source.get_absolute_url(),
        "back_label": "Back to the source",
        "styles": STYLES.values(),
        "style": style,
        "references": format_references([source], style),
        "downloads": downloads,
    }
    return render(request, "catalog/cite.html", context)
