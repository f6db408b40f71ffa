"""Save from anywhere: the bookmarklet opens /save/ with the page's URL and title, and the
passage the reader selected if any. A page the catalog holds gets its bookmark control, and a
passage the choice of a note for the reader or a thread for one of their teams; so does a page
one of the reader's teams keeps as its own source. Any other page opens the proposal form,
pre-filled (or, with a passage, offers it, keeps the passage, and offers to add the page to one
of the reader's teams)."""

from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET

from accounts.requests import AuthenticatedHttpRequest
from catalog.identity import work_keys_or_empty
from catalog.models import Source
from catalog.querysets import private_audience, private_sources_visible_to, url_filter
from proposals.duplicates import find_duplicates
from proposals.titles import clean_title
from readinglist.views import login_required_htmx
from teams.models import Team

from ..quoting import CONTEXT_SENT, SENT_BYTES_MAX, SENT_MAX, read_passage
from ..reading import viewer_teams

TITLE_MAX = 300
SAVE_TEMPLATE = "library/save.html"

# The page's own address, or its canonical one when it names one (an arXiv HTML paper read at
# a mirror, a guide section behind a tracking link): identity then finds the work it is. The
# selection goes with the few characters on either side of it, read from the DOM Range. A
# string is cut after a whole UTF-16 pair, so encodeURIComponent never meets half of one.
_CODE = (
    "javascript:(function(){var d=document,e=encodeURIComponent,g=getSelection(),"
    "c=d.querySelector('link[rel=canonical]'),"
    "u=c&&/^https?:/.test(c.href)?c.href:location.href,"
    "a='url='+e(u)+'&title='+e(d.title),q=String(g||''),n=q.length,p='',f='',r,b,"
    r"t=function(x,m){return x.slice(0,m).replace(/[\uD800-\uDBFF]$/,'')};"
    "if(q.trim()){try{r=g.getRangeAt(0);b=d.createRange();b.selectNodeContents(d.body);"
    "b.setEnd(r.startContainer,r.startOffset);"
    r"p=String(b).slice(-CONTEXT).replace(/^[\uDC00-\uDFFF]/,'');"
    "b.selectNodeContents(d.body);b.setStart(r.endContainer,r.endOffset);"
    "f=t(String(b),CONTEXT)}catch(x){}"
    "q=t(q,SENT);while(e(q).length>BYTES)q=t(q,q.length-100);"
    "a+='&quote='+e(q)+'&prefix='+e(p)+'&suffix='+e(f)+'&selected='+n}"
    "location.href='SAVE?'+a})()"
)


def save_address(request: HttpRequest) -> str:
    """The absolute address of /save/, where the bookmarklet and a phone's share route land."""
    return f"{request.scheme}://{settings.SITE_DOMAIN}{reverse('save:save')}"


def bookmarklet_code(request: HttpRequest) -> str:
    """It only navigates to this site; it reads the page's address, title and selected text
    and injects nothing, so it works on other sites' pages whatever their Content-Security-
    Policy. Ours blocks javascript: links, so on its own page a click shows how to install it
    instead."""
    code = _CODE.replace("CONTEXT", str(CONTEXT_SENT)).replace("SENT", str(SENT_MAX))
    # The address last: nothing in it is taken for a placeholder.
    return code.replace("BYTES", str(SENT_BYTES_MAX)).replace("SAVE", save_address(request))


@require_GET
def bookmarklet(request: HttpRequest) -> HttpResponse:
    context = {"code": bookmarklet_code(request), "share_url": f"{save_address(request)}?url="}
    return render(request, "library/save_bookmarklet.html", context)


def own_team_source(request: AuthenticatedHttpRequest, url: str) -> tuple[Source, Team] | None:
    """The private source one of the reader's teams keeps at this address (any stored spelling
    of it, as the catalog matches), with its team. One query whether or not anything matches,
    and another team's source is never read: to its non-members such a page is unknown."""
    keys = work_keys_or_empty(url)
    mine = Source.all_objects.filter(private_sources_visible_to(request.user))
    found = mine.filter(url_filter("url", keys)).order_by("pk").first() if keys.url else None
    if found is None:
        return None
    audience = private_audience(found) or set()
    team = next((team for team in viewer_teams(request) if team.pk in audience), None)
    return (found, team) if team is not None else None


@require_GET
@login_required_htmx
def save(request: AuthenticatedHttpRequest) -> HttpResponse:
    passage, shared_url = read_passage(request.GET)
    # Not cut short: an over-long address is refused with its length by the identity check.
    url = request.GET.get("url", "").strip() or shared_url
    title = clean_title(request.GET.get("title", ""))[:TITLE_MAX]
    # No report without an address.
    report = find_duplicates(url=url) if url else None
    found = report.source if report is not None else None
    context: dict[str, Any] = {"passage": passage, "saved_title": title}
    if report is not None and found is not None and found.status == Source.Status.PUBLISHED:
        context |= {"source": found, "matched_by": report.matched_by}
        return render(request, SAVE_TEMPLATE, context)
    if report is None or report.invalid:
        context["problem"] = report.invalid if report else "The bookmarklet sent no address."
        return render(request, SAVE_TEMPLATE, context, status=400)
    if own := own_team_source(request, report.url):
        context |= {"source": own[0], "team": own[1]}
        return render(request, SAVE_TEMPLATE, context)
    propose = f"{reverse('proposals:propose')}?{urlencode({'url': report.url, 'title': title})}"
    if passage is None:
        return redirect(propose)
    # A page the catalog lacks has no place for a note yet: the passage stays on this page (a
    # proposal holds no note), and a reader in a team may make the page one of the team's own.
    context |= {"propose": propose, "page_url": report.url, "teams": viewer_teams(request)}
    context["markdown"] = passage.as_markdown(title, report.url)
    return render(request, SAVE_TEMPLATE, context)
