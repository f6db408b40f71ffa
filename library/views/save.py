"""Save from anywhere: the bookmarklet opens /save/ with the page's URL and title. A page the
catalog holds gets its bookmark control; any other page opens the proposal form, pre-filled."""

from urllib.parse import urlencode

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET

from accounts.requests import AuthenticatedHttpRequest
from catalog.models import Source
from proposals.duplicates import find_duplicates
from proposals.titles import clean_title
from readinglist.views import login_required_htmx

TITLE_MAX = 300


def save_address(request: HttpRequest) -> str:
    """The absolute address of /save/, where the bookmarklet and a phone's share route land."""
    return f"{request.scheme}://{settings.SITE_DOMAIN}{reverse('save:save')}"


def bookmarklet_code(request: HttpRequest) -> str:
    """It only navigates to this site; it reads the page's address and title and injects
    nothing, so it works on other sites' pages whatever their Content-Security-Policy. Ours
    blocks javascript: links, so on its own page a click shows how to install it instead."""
    save_url = save_address(request)
    return (
        f"javascript:location.href='{save_url}?url='+encodeURIComponent(location.href)"
        "+'&title='+encodeURIComponent(document.title)"
    )


@require_GET
def bookmarklet(request: HttpRequest) -> HttpResponse:
    context = {"code": bookmarklet_code(request), "share_url": f"{save_address(request)}?url="}
    return render(request, "library/save_bookmarklet.html", context)


@require_GET
@login_required_htmx
def save(request: AuthenticatedHttpRequest) -> HttpResponse:
    # Not cut short: an over-long address is refused with its length by the identity check.
    url = request.GET.get("url", "").strip()
    title = clean_title(request.GET.get("title", ""))[:TITLE_MAX]
    # No report without an address.
    report = find_duplicates(url=url) if url else None
    found = report.source if report is not None else None
    if report is not None and found is not None and found.status == Source.Status.PUBLISHED:
        return render(
            request,
            "library/save.html",
            {"source": found, "matched_by": report.matched_by, "saved_title": title},
        )
    if report is None or report.invalid:
        problem = report.invalid if report else "The bookmarklet sent no address."
        return render(request, "library/save.html", {"problem": problem}, status=400)
    query = urlencode({"url": report.url, "title": title})
    return redirect(f"{reverse('proposals:propose')}?{query}")
