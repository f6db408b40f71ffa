"""The moderation queue's status filter: it opens on pending proposals."""

from collections.abc import Iterator
from typing import TYPE_CHECKING, TypedDict

from django.contrib import admin
from django.contrib.admin.views.main import ChangeList
from django.db.models import QuerySet
from django.http import HttpRequest

from .models import Proposal

if TYPE_CHECKING:
    # django-stubs-ext is a development dependency: only the type checker imports it.
    from django_stubs_ext import StrOrPromise

ALL = "all"


class FilterChoice(TypedDict):
    """One link in a list filter, as the admin's filter template reads it."""

    selected: bool
    query_string: str
    display: "StrOrPromise"


class QueueStatusFilter(admin.SimpleListFilter):
    """The queue opens on pending proposals; every other status is one click away."""

    title = "status"
    parameter_name = "status"

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin) -> list[tuple[str, str]]:
        return [*Proposal.Status.choices, (ALL, "All")]

    def choices(self, changelist: ChangeList) -> Iterator[FilterChoice]:
        value = self.value() or Proposal.Status.PENDING
        for lookup, title in self.lookup_choices:
            yield {
                "selected": value == lookup,
                "query_string": changelist.get_query_string({self.parameter_name: lookup}),
                "display": title,
            }

    def queryset(self, request: HttpRequest, queryset: QuerySet[Proposal]) -> QuerySet[Proposal]:
        value = self.value() or Proposal.Status.PENDING
        if value == ALL:
            return queryset
        if value not in Proposal.Status.values:
            return queryset.none()
        return queryset.filter(status=value)
