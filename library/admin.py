from django.contrib import admin

from .models import Bookmark


@admin.register(Bookmark)
class BookmarkAdmin(admin.ModelAdmin):
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

    def has_module_permission(self, request):
        return request.user.is_active and request.user.is_superuser

    def has_view_permission(self, request, obj=None):
        return request.user.is_active and request.user.is_superuser

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
