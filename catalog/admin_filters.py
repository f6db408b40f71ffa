"""Maintainer filters on the source list: broken links and entries due for re-verification."""

from datetime import date, timedelta
from typing import Any

from django.conf import settings
from django.contrib import admin
from django.db.models import Q, QuerySet
from django.http import HttpRequest
from django.utils import timezone

from .models import Source, Tier


class LinkHealthFilter(admin.SimpleListFilter):
    title = "link health"
    parameter_name = "link"

    def lookups(
        self, request: HttpRequest, model_admin: admin.ModelAdmin[Any]
    ) -> list[tuple[str, str]]:
        return [
            ("broken", "Broken"),
            ("failing-week", f"Failing for {settings.LINKCHECK_WARN_AFTER_DAYS}+ days"),
            ("blocked", "Blocks link checkers"),
            ("ok", "Works"),
            ("unchecked", "Not checked yet"),
        ]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Source]) -> QuerySet[Source]:
        value = self.value()
        if value == "failing-week":
            since = timezone.now() - timedelta(days=settings.LINKCHECK_WARN_AFTER_DAYS)
            return queryset.filter(
                link_status=Source.LinkStatus.BROKEN, link_failing_since__lte=since
            )
        if value in Source.LinkStatus.values:
            return queryset.filter(link_status=value)
        return queryset


def needs_reverification(queryset: QuerySet[Source], today: date | None = None) -> QuerySet[Source]:
    """Frontier entries never verified, or verified longer ago than FRONTIER_STALE_AFTER_DAYS."""
    today = today or timezone.localdate()
    cutoff = today - timedelta(days=settings.FRONTIER_STALE_AFTER_DAYS)
    return queryset.filter(tier__slug=Tier.FRONTIER).filter(
        Q(verified_on__isnull=True) | Q(verified_on__lt=cutoff)
    )


class ReverificationFilter(admin.SimpleListFilter):
    title = "verification"
    parameter_name = "verification"

    def lookups(
        self, request: HttpRequest, model_admin: admin.ModelAdmin[Any]
    ) -> list[tuple[str, str]]:
        return [("stale", f"Needs re-verification (> {settings.FRONTIER_STALE_AFTER_DAYS} days)")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Source]) -> QuerySet[Source]:
        if self.value() == "stale":
            return needs_reverification(queryset)
        return queryset
