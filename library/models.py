from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from .querysets import BookmarkQuerySet


class BookmarkStatus(models.TextChoices):
    TO_READ = "to_read", "To read"
    READING = "reading", "Reading"
    READ = "read", "Read"


class Bookmark(models.Model):
    """One reader's place in one source: saved, being read, or finished."""

    Status = BookmarkStatus

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
        ordering = ["-saved_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["user", "source"], name="bookmark_unique_user_source"),
            models.CheckConstraint(
                condition=Q(status__in=BookmarkStatus.values),
                name="bookmark_status_valid",
            ),
        ]
        indexes = [
            models.Index(fields=["user", "status"], name="bookmark_user_status"),
            # A team's recent activity walks this index newest first and stops after the rows
            # it shows, instead of reading every member's bookmarks and sorting them.
            models.Index(fields=["-updated", "-id"], name="bookmark_updated_desc"),
            # "N teammates finished" counts the finished bookmarks of the sources a page shows:
            # this index holds only finished ones, by source, so the count reads those rows
            # (and their readers, to match against the teams) and nothing else.
            models.Index(
                fields=["source", "user"],
                condition=Q(status="read"),
                name="bookmark_read_source",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.source} · {self.get_status_display()}"


class FollowKind(models.TextChoices):
    TOPIC = "topic", "Topic"
    TIER = "tier", "Tier"
    LIST = "list", "Reading list"
    SEARCH = "search", "Saved search"


class Follow(models.Model):
    """Something a reader follows: a topic, a tier, a reading list (by slug) or a saved search
    (its query string, as the search page's URL carries it)."""

    Kind = FollowKind

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="follows"
    )
    kind = models.CharField(max_length=10, choices=Kind)
    target = models.CharField(max_length=400)
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["kind", "created", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "kind", "target"], name="follow_unique_user_kind_target"
            ),
            models.CheckConstraint(
                condition=Q(kind__in=FollowKind.values), name="follow_kind_valid"
            ),
            models.CheckConstraint(condition=~Q(target=""), name="follow_target_not_empty"),
        ]

    def __str__(self) -> str:
        return f"{self.user} follows {self.kind} {self.target}"


class DigestFrequency(models.TextChoices):
    DAILY = "daily", "Daily"
    WEEKLY = "weekly", "Weekly"
    OFF = "off", "Off"


class DigestSettings(models.Model):
    """How often a reader gets the email digest of what they follow."""

    Frequency = DigestFrequency

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="digest_settings"
    )
    frequency = models.CharField(max_length=6, choices=Frequency, default=Frequency.WEEKLY)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = "digest settings"
        verbose_name_plural = "digest settings"
        constraints = [
            models.CheckConstraint(
                condition=Q(frequency__in=DigestFrequency.values),
                name="digest_frequency_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user}: {self.get_frequency_display()}"


class DigestLog(models.Model):
    """One digest sent: at most one per reader and period ("daily:2026-12-01",
    "weekly:2026-W49"), which is what makes sending idempotent."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="digests_sent"
    )
    period = models.CharField(max_length=20)
    sent_at = models.DateTimeField(default=timezone.now)
    entries = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-sent_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["user", "period"], name="digest_once_per_period"),
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.period}"


class DismissalReason(models.TextChoices):
    NOT_RELEVANT = "not_relevant", "Not relevant to me"
    READ_ELSEWHERE = "read_elsewhere", "Already read elsewhere"
    TOO_BASIC = "too_basic", "Too basic"
    TOO_ADVANCED = "too_advanced", "Too advanced"


class Dismissal(models.Model):
    """A reader's "Not for me" on a source: For you leaves it out and, by the reason, moves the
    rest (library.recommendations). Search and the catalog still show it."""

    Reason = DismissalReason

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="dismissals"
    )
    source = models.ForeignKey(
        "catalog.Source", on_delete=models.CASCADE, related_name="dismissals"
    )
    reason = models.CharField(
        max_length=20, choices=Reason, default=Reason.NOT_RELEVANT, blank=False
    )
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["user", "source"], name="dismissal_unique_user_source"),
            models.CheckConstraint(
                condition=Q(reason__in=DismissalReason.values), name="dismissal_reason_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.source} · {self.get_reason_display()}"
