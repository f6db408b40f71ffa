from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin

from .models import Bookmark, User


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    ordering = ["email"]
    list_display = ["email", "display_name", "is_staff", "is_active", "date_joined"]
    search_fields = ["email", "display_name"]
    fieldsets = [
        (None, {"fields": ["email", "password", "display_name"]}),
        (
            "Permissions",
            {"fields": ["is_active", "is_staff", "is_superuser", "groups", "user_permissions"]},
        ),
        ("Dates", {"fields": ["last_login", "date_joined"]}),
    ]
    add_fieldsets = [(None, {"classes": ["wide"], "fields": ["email", "password1", "password2"]})]


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
