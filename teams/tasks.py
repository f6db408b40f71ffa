"""Team mail that may go to many readers, sent off the request path as tasks (Django's Tasks
framework: the database backend's worker in production, at once in development and tests)."""

import logging

from django.tasks import task

from accounts.models import User

from .emails import send_calendar_address, send_removed, send_team_deleted
from .models import Team

logger = logging.getLogger(__name__)


@task
def mail_new_calendar_address(team_id: int, reason: str) -> int:
    """Mail every active member the team calendar's current address. Returns how many mails
    went out; one that fails is logged and the others still go."""
    team = Team.objects.filter(pk=team_id).first()
    if team is None:
        return 0
    sent = 0
    for member in team.members.filter(is_active=True).order_by("pk"):
        try:
            send_calendar_address(team, member, reason)
        except Exception:
            logger.exception("calendar address for team %s to user %s not sent", team_id, member.pk)
        else:
            sent += 1
    return sent


@task
def mail_team_deleted(team_name: str, deleted_by: str, user_ids: list[int]) -> int:
    """Tell the former members that the team is gone and what became of their shared notes."""
    sent = 0
    for reader in User.objects.filter(pk__in=user_ids, is_active=True).order_by("pk"):
        try:
            send_team_deleted(team_name, deleted_by, reader)
        except Exception:
            logger.exception("team-deleted mail to user %s not sent", reader.pk)
        else:
            sent += 1
    return sent


@task
def mail_removed(team_id: int, user_id: int, removed_by: str) -> int:
    """Tell a reader an owner removed them from the team (unless they are back in it)."""
    team = Team.objects.filter(pk=team_id).first()
    reader = User.objects.filter(pk=user_id, is_active=True).first()
    if team is None or reader is None or team.memberships.filter(user=reader).exists():
        return 0
    send_removed(team, reader, removed_by)
    return 1
