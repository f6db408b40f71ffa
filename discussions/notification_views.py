"""The reader's notifications: replies and mentions in their teams' threads, newest first.

Seeing the page marks what it shows as read, so the header's count drops to what is still new.
"""

from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from accounts.requests import AuthenticatedHttpRequest
from readinglist.views import login_required_htmx

from . import services
from .models import Notification

PAGE_SIZE = 30


@never_cache
@login_required_htmx
@require_GET
def notifications_view(request: AuthenticatedHttpRequest) -> HttpResponse:
    rows = (
        Notification.objects.for_reader(request.user)
        .select_related("actor", "thread__team", "thread__source", "reply")
        .order_by("-created", "-pk")
    )
    page = Paginator(rows, PAGE_SIZE).get_page(request.GET.get("page"))
    shown = list(page.object_list)
    # Rendered as unread first, so the reader can tell what is new on this visit.
    unread = {row.pk for row in shown if row.read_at is None}
    services.mark_read(user=request.user, notifications=shown)
    context = {"page": page, "notifications": shown, "unread": unread}
    return render(request, "discussions/notifications.html", context)
