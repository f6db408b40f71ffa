from django.contrib import admin
from django.db.models import Model
from django.http import HttpRequest

from readinglist.admin import ReadOnlyAdminMixin

from .models import Bookmark


@admin.register(Bookmark)
class BookmarkAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Readers' libraries are their own: superusers may look, nobody edits them here."""

    list_display = ["user", "source", "status", "saved_at", "finished_at"]
    list_filter = ["status"]
    list_select_related = ["user", "source"]
    search_fields = ["user__email", "source__title"]
    readonly_fields = [
        "user",
        "source",
        "status",
        "saved_at",
        "started_at",
        "finished_at",
        "updated",
    ]

    def has_module_permission(self, request: HttpRequest) -> bool:
        return request.user.is_active and request.user.is_superuser

    def has_view_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return request.user.is_active and request.user.is_superuser
