"""For you: recommendations from the reader's library (see library.recommendations)."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from readinglist.views import login_required_htmx

from ..recommendations import recommendations_for


@require_GET
@login_required_htmx
def for_you(request: HttpRequest) -> HttpResponse:
    return render(request, "library/for_you.html", {"for_you": recommendations_for(request.user)})
