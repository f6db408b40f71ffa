"""A source's reference formatted in a citation style, to read and copy."""

from django.contrib import messages
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_POST

from accounts.requests import AuthenticatedHttpRequest
from readinglist.pagecache import page_cache
from readinglist.requests import HtmxHttpRequest
from readinglist.views import login_required_htmx

from ..citation_styles import STYLES, chosen_style, format_references, set_default_style
from ..models import Source


@page_cache(shared=True, params={"style"})
@require_GET
def source_cite(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    source = get_object_or_404(Source.objects.select_related("tier"), slug=slug)
    # An unknown style falls back to the default rather than an error: the address may be old.
    # Readers' pages are never stored in the shared cache, so their own default is safe here.
    style, default = chosen_style(request.GET.get("style"), request.user)
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
        "default_style": default,
        "references": format_references([source], style),
        "downloads": downloads,
    }
    return render(request, "catalog/cite.html", context)


@require_POST
@login_required_htmx
def default_style(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Make the posted style the reader's default, and go back to the cite page it came from."""
    key = request.POST.get("style", "")
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        back = reverse("library:export-index")
    if key not in STYLES:
        messages.error(request, "That citation style is not offered here.")
        return HttpResponseRedirect(back)
    style = set_default_style(request.user, key)
    messages.success(request, f"{style.label} is now your default citation style.")
    return HttpResponseRedirect(back)
