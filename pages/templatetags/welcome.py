from datetime import timedelta

from django import template
from django.utils import timezone

from accounts.models import User
from catalog.changelog import last_seen_changes

register = template.Library()

# How long an account counts as new: long enough to cover its first sessions, short enough that
# a returning reader is told about changes, or that there were none, as usual.
NEW_ACCOUNT_PERIOD = timedelta(days=1)


@register.filter
def is_new_account(user: object) -> bool:
    """Whether `user` joined within NEW_ACCOUNT_PERIOD and has never been shown a change: such a
    reader has no "last visit" to compare the catalog with, so the home page welcomes them."""
    # Whatever the template hands over: a reader, the anonymous user, or nothing at all.
    if not isinstance(user, User):
        return False
    if last_seen_changes(user) is not None:
        return False
    return timezone.now() - user.date_joined < NEW_ACCOUNT_PERIOD
