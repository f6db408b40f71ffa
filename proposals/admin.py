"""Moderation in the admin: the queue, the checks, and the decisions (each through a service)."""

from typing import Any, Protocol

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Prefetch, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import ngettext

from accounts.models import User
from accounts.requests import AuthenticatedHttpRequest
from catalog.models import Topic
from readinglist.admin import ReadOnlyAdminMixin
from readinglist.forms import add_service_error

from .admin_filters import QueueStatusFilter
from .duplicates import find_duplicates
from .fields import groups
from .forms import AcceptForm, ReasonForm
from .models import Decision, Proposal
from .services import (
    MODERATE_PERMISSION,
    accept_proposal,
    bulk_reject,
    reject_proposal,
    request_changes,
)


class DecisionInline(ReadOnlyAdminMixin, admin.TabularInline):
    model = Decision
    extra = 0
    can_delete = False
    template = "admin/edit_inline/tabular_labelled.html"
    readonly_fields = ["created", "action", "maintainer", "reason", "spam"]
    fields = list(readonly_fields)
    ordering = ["-created"]


class DecisionService(Protocol):
    """A decision on one proposal with the maintainer's reason (request changes, reject)."""

    def __call__(self, *, proposal: Proposal, by: User, reason: str) -> Decision: ...


# The admin shows some answers through a method that renders them for a maintainer.
SHOWN_AS = {"url": "link", "topics": "topic_names"}


def admin_field_groups() -> list[tuple[str | None, list[str]]]:
    """The declared answers in their groups, with the moderation context around them."""
    answers: list[tuple[str | None, list[str]]] = [
        (group, [SHOWN_AS.get(name, name) for name in names]) for group, names in groups()
    ]
    return [
        (None, ["status", "proposer_info", "submitted_at", "created"]),
        answers[0],
        ("Checks", ["duplicate_check", "similar_titles", "fetched"]),
        *answers[1:],
        ("Outcome", ["resulting_source"]),
    ]


FIELD_GROUPS = admin_field_groups()


@admin.register(Proposal)
class ProposalAdmin(admin.ModelAdmin):
    list_display = ["title", "status", "proposer", "tier", "kind", "fetched_from", "submitted_at"]
    list_filter = [QueueStatusFilter, "tier", "kind", "basis"]
    list_select_related = ["proposer", "tier"]
    search_fields = ["title", "url", "proposer__email"]
    ordering = ["submitted_at", "pk"]
    date_hierarchy = "submitted_at"
    actions = ["reject_as_spam"]
    inlines = [DecisionInline]
    change_form_template = "admin/proposals/proposal/change_form.html"
    fieldsets = [(group, {"fields": list(names)}) for group, names in FIELD_GROUPS]
    readonly_fields = [name for _, names in FIELD_GROUPS for name in names]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Proposal]:
        return (
            super()
            .get_queryset(request)
            .select_related("proposer", "tier", "after_source", "replaces", "resulting_source")
            .prefetch_related(Prefetch("topics", queryset=Topic.objects.order_by("position")))
        )

    # Proposals arrive from readers and change only through decisions.
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Proposal | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Proposal | None = None) -> bool:
        return False

    def has_decide_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm(MODERATE_PERMISSION)

    @admin.display(description="proposer")
    def proposer_info(self, obj: Proposal) -> SafeString:
        others = Proposal.objects.by(obj.proposer_id).exclude(pk=obj.pk).count()
        return format_html(
            "{} &lt;{}&gt; · joined {} · {} other proposal{}",
            obj.proposer.public_name,
            obj.proposer.email,
            obj.proposer.date_joined.date().isoformat(),
            others,
            "" if others == 1 else "s",
        )

    @admin.display(description="URL")
    def link(self, obj: Proposal) -> SafeString:
        return format_html(
            '<a href="{}" rel="noopener noreferrer nofollow">{}</a>', obj.url, obj.url
        )

    @admin.display(description="topics")
    def topic_names(self, obj: Proposal) -> str:
        return ", ".join(topic.name for topic in obj.topics.all()) or "—"

    @admin.display(description="duplicate check")
    def duplicate_check(self, obj: Proposal) -> str:
        report = find_duplicates(url=obj.url, exclude_proposal=obj)
        if report.source:
            return format_html(
                'Already in the catalog (same {}): <a href="{}">{}</a>',
                report.matched_by,
                reverse("admin:catalog_source_change", args=[report.source.pk]),
                report.source.title,
            )
        if report.proposal:
            return format_html(
                'Also proposed: <a href="{}">{}</a>',
                reverse("admin:proposals_proposal_change", args=[report.proposal.pk]),
                report.proposal.title,
            )
        return "No other source or open proposal has this URL."

    @admin.display(description="fetched from")
    def fetched_from(self, obj: Proposal) -> str:
        return (obj.fetched_metadata or {}).get("source") or "—"

    @admin.display(description="fetched metadata")
    def fetched(self, obj: Proposal) -> SafeString:
        return render_to_string(
            "admin/proposals/proposal/fetched_metadata.html", {"metadata": obj.fetched_metadata}
        )

    @admin.display(description="similar titles")
    def similar_titles(self, obj: Proposal) -> str:
        report = find_duplicates(url=obj.url, title=obj.title, exclude_proposal=obj)
        rows = [("related: implementation of", source) for source in report.implements] + [
            (match.reason, match.source) for match in report.similar
        ]
        if not rows:
            return "None."
        return format_html(
            "<ul>{}</ul>",
            format_html_join(
                "",
                '<li>{}: <a href="{}">{}</a></li>',
                (
                    (reason, reverse("admin:catalog_source_change", args=[s.pk]), s.title)
                    for reason, s in rows
                ),
            ),
        )

    # Decisions: an intermediate page per action, each calling one service.

    def get_urls(self) -> list[URLPattern]:
        view = self.admin_site.admin_view
        return [
            path("<int:pk>/accept/", view(self.accept_view), name="proposals_proposal_accept"),
            path(
                "<int:pk>/request-changes/",
                view(self.request_changes_view),
                name="proposals_proposal_request_changes",
            ),
            path("<int:pk>/reject/", view(self.reject_view), name="proposals_proposal_reject"),
            *super().get_urls(),
        ]

    def render_change_form(
        self, request: HttpRequest, context: dict[str, Any], *args: Any, **kwargs: Any
    ) -> HttpResponse:
        context["can_decide"] = self.has_decide_permission(request)
        return super().render_change_form(request, context, *args, **kwargs)

    def _proposal_to_decide(self, request: HttpRequest, pk: int) -> Proposal:
        if not self.has_decide_permission(request):
            raise PermissionDenied
        return get_object_or_404(self.get_queryset(request), pk=pk)

    def _decided(self, request: HttpRequest, proposal: Proposal) -> HttpResponse:
        self.message_user(
            request,
            f"“{proposal.title}” was already decided ({proposal.get_status_display().lower()}).",
            messages.WARNING,
        )
        return redirect("admin:proposals_proposal_change", proposal.pk)

    def _page(
        self,
        request: HttpRequest,
        proposal: Proposal,
        form: forms.BaseForm,
        *,
        action: str,
        title: str,
    ) -> TemplateResponse:
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": title,
            "proposal": proposal,
            "form": form,
            "action": action,
            "check": find_duplicates(
                url=proposal.url, title=proposal.title, exclude_proposal=proposal
            ),
        }
        return TemplateResponse(request, "admin/proposals/proposal/decide.html", context)

    def accept_view(self, request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
        proposal = self._proposal_to_decide(request, pk)
        if not proposal.is_open:
            return self._decided(request, proposal)
        form = AcceptForm(request.POST or None, initial=AcceptForm.initial_for(proposal))
        if request.method == "POST" and form.is_valid():
            try:
                source = accept_proposal(
                    proposal=proposal,
                    by=request.user,
                    overrides=form.overrides(),
                    reason=form.cleaned_data["reason"],
                )
            except ValidationError as error:
                return self._refused(request, proposal, form, error, action="accept")
            self.log_change(request, proposal, f"Accepted: in the catalog as “{source.title}”.")
            self.message_user(
                request,
                format_html(
                    'Accepted: <a href="{}">{}</a> is in the catalog.',
                    source.get_absolute_url(),
                    source.title,
                ),
                messages.SUCCESS,
            )
            return redirect("admin:proposals_proposal_changelist")
        return self._page(request, proposal, form, action="accept", title="Accept proposal")

    def _refused(
        self,
        request: HttpRequest,
        proposal: Proposal,
        form: forms.BaseForm,
        error: ValidationError,
        *,
        action: str,
    ) -> HttpResponse:
        if getattr(error, "code", None) == "decided":
            proposal.refresh_from_db()
            return self._decided(request, proposal)
        add_service_error(form, error)
        return self._page(
            request, proposal, form, action=action, title=f"{action.title()} proposal"
        )

    def _reason_view(
        self,
        request: AuthenticatedHttpRequest,
        pk: int,
        *,
        service: DecisionService,
        action: str,
        title: str,
        done: str,
    ) -> HttpResponse:
        proposal = self._proposal_to_decide(request, pk)
        if not proposal.is_open:
            return self._decided(request, proposal)
        form = ReasonForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            try:
                service(proposal=proposal, by=request.user, reason=form.cleaned_data["reason"])
            except ValidationError as error:
                return self._refused(request, proposal, form, error, action=action)
            self.log_change(request, proposal, f"{done}: {form.cleaned_data['reason']}")
            self.message_user(request, f"{done}: “{proposal.title}”.", messages.SUCCESS)
            return redirect("admin:proposals_proposal_changelist")
        return self._page(request, proposal, form, action=action, title=title)

    def request_changes_view(self, request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
        return self._reason_view(
            request,
            pk,
            service=request_changes,
            action="request-changes",
            title="Request changes",
            done="Changes requested",
        )

    def reject_view(self, request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
        return self._reason_view(
            request,
            pk,
            service=reject_proposal,
            action="reject",
            title="Reject proposal",
            done="Rejected",
        )

    @admin.action(description="Reject selected proposals as spam…", permissions=["decide"])
    def reject_as_spam(
        self, request: AuthenticatedHttpRequest, queryset: QuerySet[Proposal]
    ) -> TemplateResponse | None:
        form = ReasonForm(request.POST if "apply" in request.POST else None)
        if "apply" in request.POST and form.is_valid():
            chosen = list(queryset)
            count = bulk_reject(
                proposals=chosen, by=request.user, reason=form.cleaned_data["reason"]
            )
            # Only those this rejected: a proposal decided before keeps its own entry.
            for proposal in Proposal.objects.filter(
                pk__in=[p.pk for p in chosen if p.is_open], status=Proposal.Status.REJECTED
            ):
                self.log_change(request, proposal, "Rejected as spam.")
            self.message_user(
                request,
                ngettext(
                    "Rejected %(count)d proposal as spam.",
                    "Rejected %(count)d proposals as spam.",
                    count,
                )
                % {"count": count},
                messages.SUCCESS,
            )
            return None
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": "Reject as spam",
            "selected": queryset,
            "action": "reject_as_spam",
            "form": form,
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        }
        return TemplateResponse(request, "admin/proposals/proposal/bulk_reject.html", context)


@admin.register(Decision)
class DecisionAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """The record of every decision: readable, never changed or deleted."""

    list_display = ["created", "action", "proposal", "maintainer", "spam"]
    list_filter = ["action", "spam"]
    list_select_related = ["proposal", "maintainer"]
    search_fields = ["proposal__title", "reason"]
    readonly_fields = ["proposal", "maintainer", "action", "reason", "spam", "created"]
