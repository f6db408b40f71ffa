"""Admin pieces more than one app uses."""

from django.db.models import Model
from django.http import HttpRequest


class ReadOnlyAdminMixin:
    """A record nobody adds, changes or deletes in the admin: rows that readers' actions or
    recorded decisions write, which the admin only shows. Put it before ModelAdmin."""

    # `obj` too: inlines are asked with the parent row.
    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False
