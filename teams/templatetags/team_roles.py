"""What the team page may offer a member, read from the memberships it already lists."""

from collections.abc import Iterable

from django import template

from teams.models import Membership

register = template.Library()


@register.filter
def has_another_owner(memberships: Iterable[Membership], user) -> bool:
    """Whether someone besides this reader owns the team: a team's last owner may not leave it,
    so the page does not offer them a Leave button that could only refuse."""
    return any(membership.is_owner and membership.user_id != user.pk for membership in memberships)
