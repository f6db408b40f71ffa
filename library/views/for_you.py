"""For you: recommendations from the reader's library (see library.recommendations)."""

from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from accounts.requests import AuthenticatedHttpRequest
from readinglist.pagecache import page_cache
from readinglist.views import login_required_htmx

from ..models import Dismissal
from ..reading import request_states
from ..recommendations import recommendations_for


# Picks depend on the catalog and the reader's own library only: both versions key the copy.
@page_cache(reader=True)
@require_GET
@login_required_htmx
def for_you(request: AuthenticatedHttpRequest) -> HttpResponse:
    # The cards read the reader's library too (bookmark controls): one query serves both.
    picks = recommendations_for(request.user, saved=request_states(request))
    context = {"for_you": picks, "reasons": Dismissal.Reason.choices}
    return render(request, "library/for_you.html", context)
