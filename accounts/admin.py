from typing import TYPE_CHECKING, Any, ClassVar

from allauth.account.admin import EmailAddressAdmin as BaseEmailAddressAdmin
from allauth.account.models import EmailAddress
from django import forms
from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse

from .models import User

if TYPE_CHECKING:
    from django.contrib.admin.options import _FieldsetSpec


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    """Superusers manage everything; maintainers see and edit readers, never passwords,
    permissions or email addresses (they could otherwise take over an account, by setting an
    address they read and asking for a password reset, or grant themselves more)."""

    ordering = ["email"]
    list_display = ["email", "display_name", "is_staff", "is_active", "date_joined"]
    search_fields = ["email", "display_name"]
    fieldsets = [
        (None, {"fields": ["email", "password", "display_name", "time_zone"]}),
        (
            "Permissions",
            {"fields": ["is_active", "is_staff", "is_superuser", "groups", "user_permissions"]},
        ),
        ("Dates", {"fields": ["last_login", "date_joined"]}),
    ]
    maintainer_fieldsets: ClassVar["_FieldsetSpec"] = [
        (None, {"fields": ["email", "display_name", "time_zone", "is_active"]}),
        ("Dates", {"fields": ["last_login", "date_joined"]}),
    ]
    add_fieldsets = [(None, {"classes": ["wide"], "fields": ["email", "password1", "password2"]})]

    def get_fieldsets(self, request: HttpRequest, obj: User | None = None) -> "_FieldsetSpec":
        if obj is not None and not request.user.is_superuser:
            return self.maintainer_fieldsets
        return super().get_fieldsets(request, obj)

    def get_readonly_fields(
        self, request: HttpRequest, obj: User | None = None
    ) -> list[str] | tuple[str, ...]:
        if not request.user.is_superuser:
            return ["email", "last_login", "date_joined"]
        return super().get_readonly_fields(request, obj)

    def get_form(
        self, request: HttpRequest, obj: User | None = None, change: bool = False, **kwargs: Any
    ) -> type[forms.ModelForm[User]]:
        if obj is not None and not request.user.is_superuser:
            # A plain model form: the user admin's own form carries the password hash field.
            kwargs["form"] = forms.ModelForm
        return super().get_form(request, obj, change=change, **kwargs)

    def has_change_permission(self, request: HttpRequest, obj: User | None = None) -> bool:
        # A maintainer may not edit staff accounts: that is how they would reach a superuser.
        if obj is not None and obj.is_staff and not request.user.is_superuser:
            return False
        return super().has_change_permission(request, obj)

    def user_change_password(
        self, request: HttpRequest, id: str, form_url: str = ""
    ) -> HttpResponse:
        if not request.user.is_superuser:
            raise PermissionDenied
        return super().user_change_password(request, id, form_url)


# allauth's own registration lets anyone who may view addresses mark them verified.
admin.site.unregister(EmailAddress)


@admin.register(EmailAddress)
class EmailAddressAdmin(BaseEmailAddressAdmin):
    """Marking an address verified proves who owns it (sign-in by SSO trusts that), so it
    needs the permission to change addresses, not only to see them."""

    @admin.action(description="Mark selected email addresses as verified", permissions=["change"])
    def make_verified(self, request: HttpRequest, queryset: QuerySet[EmailAddress]) -> None:
        super().make_verified(request, queryset)
