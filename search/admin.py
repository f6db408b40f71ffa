from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from .models import CatalogGap


@admin.register(CatalogGap)
class CatalogGapAdmin(admin.ModelAdmin):
    """What readers searched for and the catalog did not answer well, most asked first: the
    gaps a curator may fill (deleting a row forgets it once a source answers it)."""

    list_display = ["text", "searches", "first_seen", "last_seen"]
    search_fields = ["text"]
    ordering = ["-searches", "-last_seen"]
    readonly_fields = ["text", "searches", "first_seen", "last_seen"]
    date_hierarchy = "last_seen"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
