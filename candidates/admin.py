"""Triage in the admin: the inbox opens on new, relevant candidates, most relevant first."""

from collections.abc import Iterator
from typing import Any
from urllib.parse import urlencode

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html, format_html_join
from django.views.decorators.http import require_POST

from catalog.models import Tier, Topic
from readinglist.admin import ReadOnlyAdminMixin

from .models import Candidate, FeedState, UpstreamRelease
from .services import dismiss, snooze

INBOX = "inbox"
ALL = "all"


class FilterWithDefault(admin.SimpleListFilter):
    """A list filter that applies `default` until another choice is made."""

    default = ALL

    def chosen(self) -> str:
        return str(self.value() or self.default)

    def choices(self, changelist: Any) -> Iterator[Any]:
        for lookup, title in self.lookup_choices:
            yield {
                "selected": self.chosen() == lookup,
                "query_string": changelist.get_query_string({self.parameter_name: lookup}),
                "display": title,
            }


class TriageFilter(FilterWithDefault):
    """Opens on the inbox: new candidates, and snoozed ones whose month is up."""

    title = "status"
    parameter_name = "triage"
    default = INBOX

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [(INBOX, "Inbox"), *Candidate.Status.choices, (ALL, "All")]

    def queryset(self, request: HttpRequest, queryset: Any) -> Any:
        value = self.chosen()
        if value == INBOX:
            return queryset.inbox()
        if value == ALL:
            return queryset
        if value not in Candidate.Status.values:
            return queryset.none()
        return queryset.filter(status=value)


class RelevanceFilter(FilterWithDefault):
    """Candidates below the relevance cut are kept, but hidden until asked for."""

    title = "relevance"
    parameter_name = "relevance"
    default = "relevant"
    BANDS = {"high": Q(relevance__gte=0.3), "relevant": Q(relevant=True)}

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("relevant", "Above the cut"), ("high", "Score 0.30 and over"), (ALL, "All")]

    def queryset(self, request: HttpRequest, queryset: Any) -> Any:
        value = self.chosen()
        if value == ALL:
            return queryset
        return queryset.filter(self.BANDS.get(value, Q(pk__in=[])))


class TopicFilter(admin.SimpleListFilter):
    title = "suggested topic"
    parameter_name = "topic"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return list(Topic.objects.order_by("position").values_list("slug", "name"))

    def queryset(self, request: HttpRequest, queryset: Any) -> Any:
        if self.value():
            return queryset.filter(topic_slugs__contains=f",{self.value()},")
        return queryset


class DismissForm(forms.Form):
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        max_length=2000,
        help_text="Kept with the candidate, so the work never returns as new.",
    )


@admin.register(Candidate)
class CandidateAdmin(admin.ModelAdmin):
    list_display = [
        "title_link",
        "relevance",
        "topics",
        "why",
        "suggested_tier",
        "origin",
        "published",
        "status",
    ]
    list_display_links = None
    list_filter = [TriageFilter, RelevanceFilter, "origin", TopicFilter, "published", "feed"]
    search_fields = ["title", "authors", "abstract", "url"]
    date_hierarchy = "published"
    ordering = ["-relevance", "-published", "pk"]
    actions = ["make_proposal", "dismiss_selected", "snooze_selected"]
    readonly_fields = [
        "title",
        "url",
        "authors",
        "abstract",
        "categories",
        "published",
        "origin",
        "feed",
        "relevance",
        "relevant",
        "topics",
        "why",
        "suggested_tier",
        "keys",
        "status",
        "status_reason",
        "snoozed_until",
        "proposal",
        "found",
    ]
    exclude = ["suggested_topics", "nearest", "topic_slugs", "key"]
    change_form_template = "admin/candidates/candidate/change_form.html"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.display(description="title", ordering="title")
    def title_link(self, obj: Candidate) -> str:
        change = reverse("admin:candidates_candidate_change", args=[obj.pk])
        return format_html(
            '<a href="{}">{}</a><br><a href="{}">{}</a>', change, obj.title, obj.url, obj.url
        )

    @admin.display(description="suggested topics")
    def topics(self, obj: Candidate) -> str:
        names = getattr(self, "_names", None) or dict(Topic.objects.values_list("slug", "name"))
        return format_html_join(
            ", ", "{} ({})", ((names.get(s, s), f"{p:.2f}") for s, p in obj.suggested_topics)
        )

    @admin.display(description="why")
    def why(self, obj: Candidate) -> str:
        return obj.reason

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        # Topic names are read once per page rather than once per row.
        self._names = dict(Topic.objects.values_list("slug", "name"))
        return super().changelist_view(request, extra_context)

    # The triage of one candidate, from its own page: each posts to the action it repeats.

    def get_urls(self) -> list[URLPattern]:
        def one(action: str) -> URLPattern:
            view = require_POST(self.admin_site.admin_view(self._triage_one(action)))
            return path(f"<int:pk>/{action}/", view, name=f"candidates_candidate_{action}")

        return [one("propose"), one("dismiss"), one("snooze"), *super().get_urls()]

    def _triage_one(self, action: str) -> Any:
        run = {
            "propose": self.make_proposal,
            "dismiss": self.dismiss_selected,
            "snooze": self.snooze_selected,
        }[action]

        def view(request: HttpRequest, pk: int) -> HttpResponse:
            if not self.has_change_permission(request):
                raise PermissionDenied
            chosen = self.get_queryset(request).filter(pk=pk)
            if not chosen.exists():
                raise Http404("No such candidate.")
            done = run(request, chosen)
            return done or redirect("admin:candidates_candidate_change", pk)

        return view

    @admin.action(description="Make a proposal from the selected candidate", permissions=["change"])
    def make_proposal(
        self, request: HttpRequest, queryset: QuerySet[Candidate]
    ) -> HttpResponse | None:
        if queryset.count() != 1:
            self.message_user(request, "Choose one candidate to propose.", messages.WARNING)
            return None
        candidate = queryset.get()
        return HttpResponseRedirect(proposal_form_url(candidate))

    @admin.action(description="Dismiss selected candidates…", permissions=["change"])
    def dismiss_selected(
        self, request: HttpRequest, queryset: QuerySet[Candidate]
    ) -> HttpResponse | None:
        form = DismissForm(request.POST if "apply" in request.POST else None)
        if "apply" in request.POST and form.is_valid():
            count = dismiss(list(queryset), reason=form.cleaned_data["reason"])
            self.message_user(
                request,
                f"Dismissed {count} candidate{'s' if count != 1 else ''}.",
                messages.SUCCESS,
            )
            return None
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": "Dismiss candidates",
            "selected": queryset,
            "action": "dismiss_selected",
            "form": form,
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        }
        return TemplateResponse(request, "admin/candidates/candidate/dismiss.html", context)

    @admin.action(description="Snooze selected candidates for 30 days", permissions=["change"])
    def snooze_selected(self, request: HttpRequest, queryset: QuerySet[Candidate]) -> None:
        count = snooze(list(queryset))
        self.message_user(
            request,
            f"Snoozed {count} candidate{'s' if count != 1 else ''} for 30 days.",
            messages.SUCCESS,
        )


def proposal_form_url(candidate: Candidate) -> str:
    """The proposal form, filled in from the candidate; the maintainer reviews and submits it,
    so it goes through the same duplicate check and moderation as any proposal."""
    slugs = [slug for slug, _p in candidate.suggested_topics[:2]]
    values: dict[str, object] = {
        "url": candidate.url,
        "title": candidate.title,
        "authors": candidate.authors[:300],
        "kind": "paper" if candidate.origin == Candidate.Origin.ARXIV else "article",
        "topics": list(Topic.objects.filter(slug__in=slugs).values_list("pk", flat=True)),
    }
    # The form's tier radios are keyed by slug, as the candidate's suggestion is.
    if Tier.objects.filter(slug=candidate.suggested_tier).exists():
        values["tier"] = candidate.suggested_tier
    if candidate.published:
        values["year"] = candidate.published.year
    return f"{reverse('proposals:propose')}?{urlencode(values, doseq=True)}"


@admin.register(UpstreamRelease)
class UpstreamReleaseAdmin(admin.ModelAdmin):
    list_display = ["source", "version", "title", "published", "status"]
    list_filter = ["status"]
    list_select_related = ["source"]
    readonly_fields = ["source", "version", "title", "url", "published", "found"]
    actions = ["mark_verified"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.action(description="Mark the selected releases re-verified", permissions=["change"])
    def mark_verified(self, request: HttpRequest, queryset: QuerySet[UpstreamRelease]) -> None:
        count = queryset.update(status=UpstreamRelease.Status.VERIFIED)
        self.message_user(
            request,
            f"Marked {count} release{'s' if count != 1 else ''} re-verified.",
            messages.SUCCESS,
        )


@admin.register(FeedState)
class FeedStateAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Each feed's last outcome, written by the collectors and only read here."""

    list_display = ["url", "last_success", "last_checked", "last_error", "skipped_entries"]
    readonly_fields = [
        "url",
        "etag",
        "last_modified",
        "last_success",
        "last_checked",
        "last_error",
        "skipped_entries",
    ]
