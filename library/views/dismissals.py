""" "Not for me": a reader hides a source from their For you, with a reason, and can take it back.

Only the recommendations change: search, topics and the source's own page still show it."""

from django import forms
from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST
from django.views.decorators.vary import vary_on_headers

from accounts.requests import AuthenticatedHttpRequest
from catalog.source_refs import source_for_write
from readinglist.views import login_required_htmx

from ..models import Dismissal
from .bookmarks import safe_next


class DismissForm(forms.Form):
    reason = forms.ChoiceField(choices=Dismissal.Reason.choices, label="Why not for you?")
    next = forms.CharField(required=False)


@require_POST
@vary_on_headers("HX-Request")
@login_required_htmx
def dismiss(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    source = source_for_write(slug)
    form = DismissForm(request.POST)
    back = safe_next(request, request.POST.get("next"), reverse("library:for-you"))
    if not form.is_valid():
        messages.error(request, "Choose why the source is not for you: nothing was hidden.")
        return redirect(back)
    reason = form.cleaned_data["reason"]
    dismissal, _ = Dismissal.objects.update_or_create(
        user=request.user, source=source, defaults={"reason": reason}
    )
    if request.htmx:
        context = {"source": source, "dismissal": dismissal, "back": back}
        return render(request, "library/for_you.html#dismissed", context)
    messages.success(
        request,
        f"Hidden “{source.title}” from your recommendations "
        f"({dismissal.get_reason_display().lower()}). "
        "Undo it from the source's page or My library.",
    )
    return redirect(back)


@require_POST
@login_required_htmx
def undismiss(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    source = source_for_write(slug)
    back = safe_next(request, request.POST.get("next"), reverse("library:for-you"))
    deleted, _ = Dismissal.objects.filter(user=request.user, source=source).delete()
    if deleted:
        messages.success(request, f"“{source.title}” can be recommended to you again.")
    return redirect(back)
