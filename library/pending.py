"""An anonymous reader's bookmark click, kept in their session until they log in.

The click is a POST with a CSRF token, so it is a real intention of this browser; it is kept,
not applied, and applied by the login that follows. Nothing changes on a GET.
"""

from typing import Any

from django.contrib import messages
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest

from accounts.models import User
from catalog.models import Source

from .models import Bookmark
from .services import set_status

SESSION_KEY = "pending_bookmark"


def remember(request: HttpRequest, *, source: Source, action: str) -> None:
    request.session[SESSION_KEY] = {"source": source.pk, "action": action}


@receiver(user_logged_in, dispatch_uid="library.apply_pending_bookmark")
def apply_pending(sender: type, request: HttpRequest, user: User, **kwargs: Any) -> None:
    session = getattr(request, "session", None)
    pending = session.pop(SESSION_KEY, None) if session is not None else None
    if not pending:
        return
    source = Source.objects.filter(pk=pending.get("source")).first()
    action = pending.get("action")
    if source is None or action not in Bookmark.Status.values:
        return
    bookmark = set_status(user=user, source=source, status=action)
    messages.success(request, f"Saved “{source.title}” as {bookmark.get_status_display()}.")
