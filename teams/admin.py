from typing import TYPE_CHECKING, TypedDict

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from . import domains
from .models import Invitation, JoinLink, Membership, Session, Team, TeamDomain

if TYPE_CHECKING:
    # django-stubs-ext is a development dependency: only the type checker imports it.
    from django_stubs_ext import WithAnnotations


class MemberCount(TypedDict):
    """What TeamAdmin.get_queryset adds to each team."""

    members_total: int


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["user"]
    fields = ["user", "role", "joined"]


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "member_count", "created"]
    search_fields = ["name", "slug", "description"]
    prepopulated_fields = {"slug": ["name"]}
    fields = ["name", "slug", "description"]
    inlines = [MembershipInline]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Team]:
        from django.db.models import Count

        return super().get_queryset(request).annotate(members_total=Count("memberships"))

    @admin.display(description="Members", ordering="members_total")
    def member_count(self, team: "WithAnnotations[Team, MemberCount]") -> int:
        return team.members_total


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = ["email", "team", "invited_by", "created", "expires", "accepted_at"]
    list_select_related = ["team", "invited_by"]
    search_fields = ["email", "team__name"]
    readonly_fields = [
        "team",
        "email",
        "invited_by",
        "any_email",
        "created",
        "accepted_at",
        "accepted_by",
    ]
    fields = [*readonly_fields, "expires"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        # An invitation's link exists only in the email the owner's request sent.
        return False


@admin.register(JoinLink)
class JoinLinkAdmin(admin.ModelAdmin):
    list_display = ["team", "created_by", "created", "expires", "uses", "max_uses", "revoked"]
    list_select_related = ["team", "created_by"]
    list_filter = ["revoked"]
    readonly_fields = ["team", "created_by", "created", "uses"]
    fields = [*readonly_fields, "expires", "max_uses", "revoked"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(Session)
class SessionAdmin(admin.ModelAdmin):
    list_display = ["title", "team", "starts_at", "facilitator", "reminder_sent_at"]
    list_select_related = ["team", "facilitator"]
    search_fields = ["title", "team__name"]
    autocomplete_fields = ["sources", "facilitator"]
    fields = ["team", "title", "starts_at", "facilitator", "sources", "agenda"]


@admin.register(TeamDomain)
class TeamDomainAdmin(admin.ModelAdmin):
    """Maintainers see every team's email domains and revoke those a team should not hold;
    a domain is added and proved by the team's owners, never here."""

    list_display = ["domain", "team", "verified_by", "verified_at", "revoked_at", "added_by"]
    list_select_related = ["team", "added_by"]
    list_filter = ["verified_by", ("revoked_at", admin.EmptyFieldListFilter)]
    search_fields = ["domain", "team__name"]
    readonly_fields = ["team", "domain", "added_by", "created", "verified_at", "verified_by"]
    fields = [*readonly_fields, "revoked_at"]
    actions = ["revoke_domains"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.action(
        description="Revoke the selected domains (their readers stop joining)",
        permissions=["change"],
    )
    def revoke_domains(self, request: HttpRequest, queryset: QuerySet[TeamDomain]) -> None:
        count = domains.revoke(queryset)
        self.message_user(request, f"{count} domain(s) revoked.")
