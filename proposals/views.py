"""Readers propose sources and follow their proposals; anyone reads the decision log."""

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from accounts.requests import AuthenticatedHttpRequest
from catalog.models import ReadingList
from readinglist import ratelimits
from readinglist.forms import add_service_error
from readinglist.views import login_required_htmx

from .choosers import published_titles
from .duplicates import DuplicateReport, find_duplicates
from .forms import AlertForm, CheckForm, ProposalForm
from .metadata import FillResult, cached_metadata, fill_from
from .models import URL_MAX_LENGTH, Decision, MaintainerAlert, Proposal
from .services import (
    MODERATE_PERMISSION,
    WAFER_LIST,
    limit_problem,
    resubmit_proposal,
    submit_proposal,
)

PROPOSE_TEMPLATE = "proposals/propose.html"
FILLS_USED = (
    "You have filled from a link {limit} time{s} in the last hour, the most one account may. "
    "Try again in {wait}, or fill the answers in yourself."
)


def _rules() -> str | None:
    return (
        ReadingList.objects.filter(slug=WAFER_LIST)
        .values_list("contribution_rules", flat=True)
        .first()
    )


def _form_page(
    request: AuthenticatedHttpRequest,
    form: ProposalForm,
    *,
    proposal: Proposal | None = None,
    check: DuplicateReport | None = None,
    fill: FillResult | None = None,
    template: str = PROPOSE_TEMPLATE,
) -> HttpResponse:
    context = {
        "form": form,
        "proposal": proposal,
        "check": check if check is not None else form.duplicates,
        "limit_problem": "" if proposal else limit_problem(request.user),
        "rules": _rules(),
        "source_titles": published_titles(),
        "fill": fill,
    }
    return render(request, template, context)


def initial_from(params: QueryDict) -> dict[str, Any]:
    """The answers given in a query string or a re-posted form, to show pre-filled."""
    return {
        name: params.getlist(name) if name == "topics" else params.get(name)
        for name in ProposalForm.Meta.fields
        if name in params
    }


@login_required
@require_http_methods(["GET", "POST"])
def propose(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The proposal form; a query string (the bookmarklet, an import) pre-fills it."""
    if request.method == "GET":
        initial = initial_from(request.GET)
        check = find_duplicates(url=initial.get("url") or "", title=initial.get("title") or "")
        return _form_page(request, ProposalForm(initial=initial), check=check)
    form = ProposalForm(request.POST)
    if form.is_valid():
        topics, answers = form.answers()
        try:
            proposal = submit_proposal(
                proposer=request.user,
                topics=topics,
                fetched_metadata=cached_metadata(answers["url"]),
                **answers,
            )
        except ValidationError as error:
            add_service_error(form, error)
        else:
            messages.success(
                request, f"Thank you: “{proposal.title}” is waiting for a maintainer's decision."
            )
            return redirect("proposals:my-proposals")
    return _form_page(request, form)


@login_required_htmx
@require_http_methods(["GET", "POST"])
@vary_on_headers("HX-Request")
def propose_check(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The live duplicate check. Without JavaScript the form's "Check for duplicates" button posts
    here (draft answers stay out of URLs and logs) and the whole form comes back, filled in with
    what was typed, and the check's findings. A GET with ?url=&title= answers the same way."""
    params = request.POST if request.method == "POST" else request.GET
    check_form = CheckForm(params)
    check_form.is_valid()
    data = check_form.cleaned_data
    # Editing a proposal must not find the proposal itself as a duplicate.
    own = Proposal.objects.by(request.user).filter(pk=data.get("proposal") or 0).first()
    url = data.get("url", "")
    check = find_duplicates(url=url, title=data.get("title", ""), exclude_proposal=own)
    if len(url) > URL_MAX_LENGTH:
        check.invalid = f"A URL can be at most {URL_MAX_LENGTH:,} characters."
    if request.htmx:
        context = {"check": check, "live": True, "proposal": own}
        return render(request, f"{PROPOSE_TEMPLATE}#check", context)
    initial = initial_from(params)
    return _form_page(
        request, ProposalForm(initial=initial, instance=own), proposal=own, check=check
    )


@login_required_htmx
@require_POST
def propose_fill(request: AuthenticatedHttpRequest) -> HttpResponse:
    """ "Fill from link": the form again, with what the identifier's metadata says filled into
    the answers still empty. HTMX swaps the form; without JavaScript the page is re-rendered."""
    initial = initial_from(request.POST)
    own = Proposal.objects.by(request.user).filter(pk=request.POST.get("proposal") or 0).first()
    limit = settings.PROPOSALS_FILLS_PER_HOUR
    refusal = ratelimits.consume(user_id=request.user.pk, action="proposals.fill", limit=limit)
    if refusal:
        fill = FillResult(problem=refusal.explain(FILLS_USED))
    else:
        fill = fill_from(initial.get("url") or "")
    if fill.ok:
        initial["url"] = fill.url
        for name, value in fill.values().items():
            initial[name] = initial.get(name) or value
    check = find_duplicates(
        url=initial.get("url") or "", title=initial.get("title") or "", exclude_proposal=own
    )
    form = ProposalForm(initial=initial, instance=own)
    template = f"{PROPOSE_TEMPLATE}#proposal-form" if request.htmx else PROPOSE_TEMPLATE
    response = _form_page(request, form, proposal=own, check=check, fill=fill, template=template)
    if refusal and not request.htmx:
        # htmx swaps no 4xx answer: it gets the same form, with the reason, as a 200.
        response.status_code = 429
        response["Retry-After"] = str(refusal.retry_after)
    return response


@login_required
@require_GET
def my_proposals(request: AuthenticatedHttpRequest) -> HttpResponse:
    proposals = (
        Proposal.objects.by(request.user)
        .select_related("tier", "resulting_source")
        .prefetch_related(Prefetch("decisions", queryset=Decision.objects.order_by("-created")))
        .order_by("-submitted_at", "-pk")
    )
    page = Paginator(proposals, settings.CATALOG_PAGE_SIZE).get_page(request.GET.get("page"))
    return render(request, "proposals/mine.html", {"page": page})


def _own_proposal(request: AuthenticatedHttpRequest, pk: int) -> Proposal:
    # Another reader's proposal is indistinguishable from one that does not exist.
    return get_object_or_404(
        Proposal.objects.select_related("tier", "after_source", "replaces", "resulting_source"),
        pk=pk,
        proposer=request.user,
    )


@login_required
@require_GET
def proposal_detail(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    proposal = _own_proposal(request, pk)
    decisions = proposal.decisions.order_by("-created")
    return render(
        request,
        "proposals/detail.html",
        {"proposal": proposal, "decisions": decisions, "topics": proposal.topics.all()},
    )


@login_required
@require_http_methods(["GET", "POST"])
def proposal_edit(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    proposal = _own_proposal(request, pk)
    if not proposal.can_be_edited:
        messages.error(
            request,
            f"This proposal is {proposal.get_status_display().lower()}; only a proposal with "
            "changes requested can be edited.",
        )
        return redirect(proposal)
    form = ProposalForm(request.POST or None, instance=proposal)
    if request.method == "POST" and form.is_valid():
        topics, answers = form.answers()
        try:
            resubmit_proposal(proposal=proposal, by=request.user, topics=topics, **answers)
        except ValidationError as error:
            add_service_error(form, error)
        else:
            messages.success(
                request, "Your changes are in: the proposal waits for a decision again."
            )
            return redirect("proposals:my-proposals")
    latest = proposal.decisions.order_by("-created").first()
    return render(
        request,
        PROPOSE_TEMPLATE,
        {
            "form": form,
            "proposal": proposal,
            "latest": latest,
            "check": form.duplicates,
            "rules": _rules(),
            "source_titles": published_titles(),
        },
    )


@require_GET
def decision_log(request: HttpRequest) -> HttpResponse:
    decisions = Decision.objects.public_log()
    page = Paginator(decisions, settings.CATALOG_PAGE_SIZE).get_page(request.GET.get("page"))
    return render(request, "proposals/decisions.html", {"page": page})


@login_required
@require_http_methods(["GET", "POST"])
def alerts(request: AuthenticatedHttpRequest) -> HttpResponse:
    """A maintainer opts in to (or out of) the daily email of new proposals."""
    if not request.user.has_perm(MODERATE_PERMISSION) or not request.user.is_staff:
        raise Http404
    alert, _ = MaintainerAlert.objects.get_or_create(user=request.user)
    form = AlertForm(request.POST or None, instance=alert)
    if request.method == "POST" and form.is_valid():
        form.save()
        state = "on" if alert.daily_email else "off"
        messages.success(request, f"The daily email of new proposals is {state}.")
        return redirect("proposals:alerts")
    return render(request, "proposals/alerts.html", {"form": form})
