"""Read rules for discussions, written once: a thread exists for a reader only while they are a
member of its team. Memberships are read on every query, so a member who leaves or is removed
loses every thread, reply and notification of that team at once."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db import models
from django.db.models import Count, Q

from teams.models import Membership

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser

    from accounts.models import User

    Reader = User | AnonymousUser


def _teams_of(user: User) -> models.QuerySet[Membership, Any]:
    # A subquery rather than a join: joined, a thread would come back once per team member.
    return Membership.objects.filter(user=user).values("team_id")


def _owned_teams_of(user: User) -> models.QuerySet[Membership, Any]:
    return Membership.objects.filter(user=user, role=Membership.Role.OWNER).values("team_id")


class ThreadQuerySet(models.QuerySet):
    def visible_to(self, user: Reader) -> ThreadQuerySet:
        """Threads of the teams `user` belongs to now (deleted and hidden ones included: their
        pages say so); none for visitors."""
        if not user.is_authenticated:
            return self.none()
        return self.filter(team__in=_teams_of(user))

    def listed_for(self, user: Reader) -> ThreadQuerySet:
        """What lists show a reader: live threads, and hidden ones to the owners who may
        show them again."""
        if not user.is_authenticated:
            return self.none()
        return self.visible_to(user).filter(
            Q(hidden_by__isnull=True) | Q(team__in=_owned_teams_of(user)),
            deleted_at__isnull=True,
        )

    def for_display(self) -> ThreadQuerySet:
        return self.select_related("author", "team", "source").annotate(
            reply_count=Count("replies", filter=Q(replies__deleted_at__isnull=True))
        )

    def open_questions(self) -> ThreadQuerySet:
        return self.filter(
            is_question=True,
            answered_by_reply__isnull=True,
            resolved_at__isnull=True,
            deleted_at__isnull=True,
            hidden_by__isnull=True,
        )

    def newest(self) -> ThreadQuerySet:
        return self.order_by("-created", "-pk")


class ReplyQuerySet(models.QuerySet):
    def visible_to(self, user: Reader) -> ReplyQuerySet:
        if not user.is_authenticated:
            return self.none()
        return self.filter(thread__team__in=_teams_of(user))


class NotificationQuerySet(models.QuerySet):
    def for_reader(self, user: Reader) -> NotificationQuerySet:
        """The reader's notifications about teams they are still in: leaving a team silences
        it at once, whatever was sent before."""
        if not user.is_authenticated:
            return self.none()
        return self.for_reader_id(user.pk)

    def for_reader_id(self, user_id: int) -> NotificationQuerySet:
        teams = Membership.objects.filter(user_id=user_id).values("team_id")
        return self.filter(recipient_id=user_id, thread__team__in=teams)

    def unread(self) -> NotificationQuerySet:
        return self.filter(read_at__isnull=True)
