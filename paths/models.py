"""A reader's or a team's ordered reading path: sections, steps with the author's note,
visibility, the origin of a fork, the history of changes and who follows it."""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import SafeString

from accounts.validators import single_line_condition, validate_single_line
from readinglist.markdown import as_markup, render_markdown

from .querysets import PathQuerySet

# Limits a form or an import reports in words before anything is saved.
MAX_STEPS = 500
MAX_SECTIONS = 60
DESCRIPTION_MAX = 20_000
NOTE_MAX = 5_000


def new_key() -> str:
    """The path's address: unguessable, so an unlisted path is found only through its link."""
    return secrets.token_urlsafe(9)


class Visibility(models.TextChoices):
    PRIVATE = "private", "Private: only you"
    TEAM = "team", "Team: members of the team"
    UNLISTED = "unlisted", "Unlisted: anyone with the link"
    PUBLIC = "public", "Public: listed on the site"


class Path(models.Model):
    """An ordered reading plan. A path with a team belongs to that team: its owners (and the
    members they allow) edit it, and a member who leaves loses it at once."""

    Visibility = Visibility

    key = models.CharField(max_length=16, unique=True, default=new_key, editable=False)
    title = models.CharField(max_length=200, validators=[validate_single_line])
    description = models.TextField(max_length=DESCRIPTION_MAX, blank=True, help_text="Markdown.")
    description_html = models.TextField(editable=False, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="paths",
        help_text="Who made the path; for a team's path, the member who started it.",
    )
    team = models.ForeignKey(
        "teams.Team", on_delete=models.CASCADE, null=True, blank=True, related_name="paths"
    )
    visibility = models.CharField(max_length=10, choices=Visibility, default=Visibility.PRIVATE)
    editors = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="editable_paths",
        help_text="Members a team's owners allow to edit its path.",
    )
    forked_from = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="forks"
    )
    forked_from_list = models.ForeignKey(
        "catalog.ReadingList",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="forks",
    )
    # The origin's steps (source ids in order) when the fork last took its changes: what the
    # origin has changed since is the difference between this and its steps now.
    origin_snapshot = models.JSONField(default=list, blank=True, editable=False)
    proposed_at = models.DateTimeField(null=True, blank=True, editable=False)
    adopted_as = models.ForeignKey(
        "catalog.ReadingList",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="adopted_from",
    )
    created = models.DateTimeField(default=timezone.now, editable=False)
    updated = models.DateTimeField(default=timezone.now)

    objects = PathQuerySet.as_manager()

    class Meta:
        ordering = ["-updated", "-pk"]
        indexes = [models.Index(fields=["visibility", "-updated"], name="path_visibility_updated")]
        constraints = [
            models.CheckConstraint(
                condition=single_line_condition("title"), name="path_title_single_line"
            ),
            models.CheckConstraint(
                condition=Q(visibility__in=Visibility.values), name="path_visibility_valid"
            ),
            # A team's path is never private to one member; a reader's path is never "team".
            models.CheckConstraint(
                condition=(Q(team__isnull=True) & ~Q(visibility=Visibility.TEAM))
                | (Q(team__isnull=False) & ~Q(visibility=Visibility.PRIVATE)),
                name="path_visibility_matches_owner",
            ),
        ]

    def __str__(self) -> str:
        return self.title

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.description_html = render_markdown(self.description)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "description" in update_fields:
            kwargs["update_fields"] = {*update_fields, "description_html"}
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("paths:detail", args=[self.key])

    def clean(self) -> None:
        """The admin's check: a path keeps only the team-only steps its owner and visibility
        allow (paths.team_only; the site's own forms go through the services)."""
        super().clean()
        if self.pk is None:
            return
        from .team_only import not_placeable  # it reads this module's models

        held = self.steps.values_list("source_id", flat=True)
        if not_placeable(self, held):
            raise ValidationError(
                {
                    "visibility": "This path holds team-only steps: it stays its team's, seen "
                    "by the team's members alone, until they are removed."
                }
            )

    @property
    def description_markup(self) -> SafeString:
        return as_markup(self.description_html)

    @property
    def is_listed(self) -> bool:
        return self.visibility == Visibility.PUBLIC

    @property
    def owner_name(self) -> str:
        return self.team.name if self.team_id and self.team else str(self.user)


class PathSection(models.Model):
    path = models.ForeignKey(Path, on_delete=models.CASCADE, related_name="sections")
    title = models.CharField(max_length=200, blank=True, validators=[validate_single_line])
    position = models.PositiveIntegerField()

    class Meta:
        ordering = ["path", "position", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=single_line_condition("title"), name="pathsection_title_single_line"
            ),
        ]

    def __str__(self) -> str:
        return self.title or "Untitled section"


class PathStep(models.Model):
    """One source on a path, in its place, with why the author put it there."""

    path = models.ForeignKey(Path, on_delete=models.CASCADE, related_name="steps")
    section = models.ForeignKey(PathSection, on_delete=models.CASCADE, related_name="steps")
    # PROTECT: a source on someone's path is retired, never deleted.
    source = models.ForeignKey(
        "catalog.Source", on_delete=models.PROTECT, related_name="path_steps"
    )
    position = models.PositiveIntegerField()
    note = models.TextField(max_length=NOTE_MAX, blank=True, help_text="Markdown.")
    note_html = models.TextField(editable=False, blank=True)
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    added = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["path", "position", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["path", "source"], name="pathstep_unique_path_source"),
        ]
        indexes = [models.Index(fields=["path", "position"], name="pathstep_path_position")]

    def __str__(self) -> str:
        return f"{self.path} · {self.position} · {self.source_id}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.note_html = render_markdown(self.note)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "note" in update_fields:
            kwargs["update_fields"] = {*update_fields, "note_html"}
        super().save(*args, **kwargs)

    @property
    def note_markup(self) -> SafeString:
        return as_markup(self.note_html)


class ChangeAction(models.TextChoices):
    CREATED = "created", "Created"
    ADDED = "added", "Added a step"
    REMOVED = "removed", "Removed a step"
    MOVED = "moved", "Moved a step"
    NOTED = "noted", "Changed a step's note"
    SECTION = "section", "Changed the sections"
    RENAMED = "renamed", "Renamed"
    DESCRIBED = "described", "Changed the description"
    VISIBILITY = "visibility", "Changed who can see it"
    EDITORS = "editors", "Changed who can edit it"
    IMPORTED = "imported", "Imported steps"
    TOOK_UPSTREAM = "upstream", "Took a change from its origin"


class PathChange(models.Model):
    """One entry of a path's history: who changed what, and when."""

    Action = ChangeAction

    path = models.ForeignKey(Path, on_delete=models.CASCADE, related_name="changes")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    action = models.CharField(max_length=12, choices=ChangeAction)
    summary = models.CharField(max_length=400, blank=True)
    source = models.ForeignKey(
        "catalog.Source", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-at", "-pk"]
        indexes = [models.Index(fields=["path", "-at"], name="pathchange_path_at")]
        constraints = [
            models.CheckConstraint(
                condition=Q(action__in=ChangeAction.values), name="pathchange_action_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.path}: {self.get_action_display()}"


class PathFollow(models.Model):
    """A reader, or a team, following a path: its progress shows in My library or on the team."""

    path = models.ForeignKey(Path, on_delete=models.CASCADE, related_name="follows")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="path_follows",
    )
    team = models.ForeignKey(
        "teams.Team", on_delete=models.CASCADE, null=True, blank=True, related_name="path_follows"
    )
    created = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["created", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["path", "user"], condition=Q(user__isnull=False), name="pathfollow_user"
            ),
            models.UniqueConstraint(
                fields=["path", "team"], condition=Q(team__isnull=False), name="pathfollow_team"
            ),
            models.CheckConstraint(
                condition=Q(user__isnull=False, team__isnull=True)
                | Q(user__isnull=True, team__isnull=False),
                name="pathfollow_one_follower",
            ),
        ]
        indexes = [models.Index(fields=["user", "created"], name="pathfollow_user_created")]

    def __str__(self) -> str:
        return f"{self.user or self.team} follows {self.path}"
