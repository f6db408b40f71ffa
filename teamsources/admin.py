"""Maintainers see every team's own sources and delete one a team should not keep. Nothing is
changed here: a team edits its sources on its own pages, and the text comes from the file."""

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.defaultfilters import filesizeformat

from .models import TeamSource
from .removal import attached, delete_team_source


@admin.register(TeamSource)
class TeamSourceAdmin(admin.ModelAdmin):
    list_display = ["title", "team", "added_by", "created", "file_size"]
    list_select_related = ["source", "team", "added_by"]
    list_filter = ["team"]
    search_fields = ["source__title"]
    readonly_fields = [
        "title",
        "team",
        "added_by",
        "created",
        "file_name",
        "file_type",
        "file_size",
        "text_length",
        "text_truncated",
    ]
    fields = readonly_fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        # A source is added from its team's page, where the file's text is extracted.
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description="Title", ordering="source__title")
    def title(self, row: TeamSource) -> str:
        return row.source.title

    @admin.display(description="File size")
    def file_size(self, row: TeamSource) -> str:
        if not row.file:
            return "—"
        try:
            return filesizeformat(row.file.size)
        except OSError:
            return "missing from storage"

    @admin.display(description="Text kept for search")
    def text_length(self, row: TeamSource) -> str:
        return f"{len(row.text):,} characters"

    def get_deleted_objects(
        self, objs: Any, request: HttpRequest
    ) -> tuple[list[Any], dict[str, int], set[str], list[Any]]:
        """What the confirmation page lists: the source and what is attached to it, counted
        (deleting the team's row alone would leave its source behind)."""
        listed: list[Any] = []
        for row in objs:
            listed.append(f"{row.source.title} ({row.team})")
            listed.append([str(item) for item in attached(row)])
        return listed, {"team sources": len(objs)}, set(), []

    def delete_model(self, request: HttpRequest, obj: TeamSource) -> None:
        delete_team_source(obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[TeamSource]) -> None:
        for row in queryset.select_related("source"):
            delete_team_source(row)
