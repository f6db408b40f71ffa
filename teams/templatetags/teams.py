"""Team blocks other apps' pages show: `{% load teams %}{% next_sessions as sessions %}`."""

from datetime import datetime, time

from django import template
from django.template import Context
from django.utils import timezone

from ..models import Session
from ..sessions import next_sessions_of

register = template.Library()


@register.simple_tag(takes_context=True)
def next_sessions(context: Context) -> list[Session]:
    """The next session of each of the reader's teams; none for visitors.

    Counted from the start of today, not from now: cached pages are kept for the day, so a
    session stays listed until the day it took place is over rather than vanish at an hour
    no write marks.
    """
    request = context.get("request")
    if request is None or not request.user.is_authenticated:
        return []
    today = datetime.combine(timezone.localdate(), time.min, tzinfo=timezone.get_current_timezone())
    return next_sessions_of(request.user, since=today)
