from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from .querysets import BookmarkQuerySet


class Bookmark(models.Model):
    """One reader's place in one source: saved, being read, or finished."""

    class Status(models.TextChoices):
        TO_READ = "to_read", "To read"
        READING = "reading", "Reading"
        READ = "read", "Read"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bookmarks"
    )
    # PROTECT: a source people have saved is retired, never deleted.
    source = models.ForeignKey("catalog.Source", on_delete=models.PROTECT, related_name="bookmarks")
    status = models.CharField(max_length=10, choices=Status, default=Status.TO_READ)
    saved_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    updated = models.DateTimeField(auto_now=True)

    objects = BookmarkQuerySet.as_manager()

    class Meta:
        # The table keeps the name it was created with, so moving the model lost no rows.
        db_table = "accounts_bookmark"
        ordering = ["-saved_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["user", "source"], name="bookmark_unique_user_source"),
            models.CheckConstraint(
                condition=Q(status__in=["to_read", "reading", "read"]),
                name="bookmark_status_valid",
            ),
        ]
        indexes = [
            models.Index(fields=["user", "status"], name="bookmark_user_status"),
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.source} · {self.get_status_display()}"
