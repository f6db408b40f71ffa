"""A team's own source: a catalog Source kept private, with the team it belongs to and the
file a member uploaded (through Django's storage API, so production may keep it in object
storage; it is only ever served through the checked download view)."""

import secrets
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone


def upload_path(instance: "TeamSource", filename: str) -> str:
    # A random name: the reader's file name and the title stay out of storage keys and logs.
    extension = ".pdf" if instance.file_type == TeamSource.FileType.PDF else ".md"
    return f"team-sources/{secrets.token_hex(16)}{extension}"


class TeamSourceQuerySet(models.QuerySet["TeamSource"]):
    def of_member(self, user: Any) -> "TeamSourceQuerySet":
        """The team sources of the teams `user` belongs to (none for a visitor)."""
        if not getattr(user, "is_authenticated", False):
            return self.none()
        return self.filter(team__memberships__user=user)

    def matching(self, words: list[str]) -> "TeamSourceQuerySet":
        """Every word somewhere in the title, summary, authors or the file's text."""
        found = self
        for word in words:
            found = found.filter(
                Q(source__title__icontains=word)
                | Q(source__summary__icontains=word)
                | Q(source__authors__icontains=word)
                | Q(text__icontains=word)
            )
        return found


class TeamSource(models.Model):
    class FileType(models.TextChoices):
        NONE = "", "No file"
        PDF = "pdf", "PDF"
        MARKDOWN = "markdown", "Markdown"

    source = models.OneToOneField(
        "catalog.Source", on_delete=models.CASCADE, related_name="team_source"
    )
    team = models.ForeignKey("teams.Team", on_delete=models.CASCADE, related_name="own_sources")
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    file = models.FileField(upload_to=upload_path, blank=True, max_length=200)
    file_type = models.CharField(max_length=10, choices=FileType, blank=True, default="")
    file_name = models.CharField(max_length=200, blank=True, help_text="As it was uploaded.")
    # What the team's search reads: Markdown as written, a PDF's text as extracted (bounded).
    text = models.TextField(blank=True)
    text_truncated = models.BooleanField(default=False)
    created = models.DateTimeField(default=timezone.now, editable=False)

    objects = TeamSourceQuerySet.as_manager()

    class Meta:
        ordering = ["-created", "-pk"]

    def __str__(self) -> str:
        return f"{self.team}: {self.source}"
