from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET
from django.views.decorators.vary import vary_on_headers

from readinglist.pagecache import page_cache
from readinglist.requests import HtmxHttpRequest
from search import gaps
from search.forms import SearchForm
from search.page import search_sources
from teamsources.lookup import team_matches


# team=True: a member's results show their teams' own sources, which teammates add.
@page_cache(shared=True, reader=True, team=True, params=SearchForm.base_fields)
@require_GET
@vary_on_headers("HX-Request")
def source_list(request: HtmxHttpRequest) -> HttpResponse:
    """Browse and search: the whole state lives in the URL, so reload and back restore it."""
    form = SearchForm(request.GET)
    valid = form.is_valid()
    params = form.params()
    results = search_sources(params)
    team_results = team_matches(request.user, params.q) if results.page.number == 1 else []
    # A query that found the reader's team's own source is not a gap in the catalog: recording
    # it would show maintainers words only the team should read.
    if results.no_good_match and not team_results:
        gaps.record(params.q)
    results.facets.link(form.link_base())
    template = "pages/source_list.html"
    if request.htmx:
        template += "#results"
    context = {
        "form": form,
        "params": params,
        "results": results,
        "page": results.page,
        # Labelled and kept apart from the ranked results, so public ranking is unchanged.
        "team_results": team_results,
    }
    return render(request, template, context, status=200 if valid else 400)
