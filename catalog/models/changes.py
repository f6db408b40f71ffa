from datetime import datetime
from typing import Self

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone


class ChangeLogQuerySet(models.QuerySet["ChangeLogEntry"]):
    def since(self, moment: datetime | None) -> Self:
        return self.filter(created__gt=moment) if moment else self

    def of_kind(self, kind: str) -> Self:
        return self.filter(kind=kind) if kind else self

    def newest(self) -> Self:
        return self.order_by("-created", "-pk")

    def for_display(self) -> Self:
        return self.select_related("source", "actor").newest()


class ChangeKind(models.TextChoices):
    ADDED = "added", "Added"
    RETIRED = "retired", "Retired"
    PROMOTED = "promoted", "Promoted"
    DEMOTED = "demoted", "Demoted"
    REPLACED = "replaced", "Replaced"
    LINK_FIXED = "link_fixed", "Link fixed"
    REVERIFIED = "reverified", "Re-verified"
    UPDATED = "updated", "Updated"


class ChangeVia(models.TextChoices):
    ADMIN = "admin", "Admin"
    LOADER = "loader", "Catalog file"
    MODERATION = "moderation", "Moderation"


class ChangeLogEntry(models.Model):
    """One thing that changed in the catalog, whoever changed it (admin, loader or moderation).

    The title is copied so the entry still reads well after its source is deleted.
    """

    Kind = ChangeKind
    Via = ChangeVia

    source = models.ForeignKey(
        "catalog.Source",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="changes",
    )
    source_title = models.CharField(max_length=300)
    kind = models.CharField(max_length=12, choices=Kind)
    detail = models.TextField(blank=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    via = models.CharField(max_length=12, choices=Via)
    created = models.DateTimeField(default=timezone.now, db_index=True)

    objects = ChangeLogQuerySet.as_manager()

    class Meta:
        ordering = ["-created", "-pk"]
        verbose_name = "change log entry"
        verbose_name_plural = "change log"
        constraints = [
            models.CheckConstraint(
                condition=Q(kind__in=ChangeKind.values),
                name="changelog_kind_valid",
            ),
            models.CheckConstraint(
                condition=Q(via__in=ChangeVia.values),
                name="changelog_via_valid",
            ),
            models.CheckConstraint(condition=~Q(source_title=""), name="changelog_has_title"),
        ]
        indexes = [models.Index(fields=["kind", "-created"], name="changelog_kind_created")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.source_title}"


class ChangeLogSeen(models.Model):
    """When a reader last saw the change log on the home page. Readers without a row have not
    seen it since they joined."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        primary_key=True,
        on_delete=models.CASCADE,
        related_name="changelog_seen",
    )
    seen_at = models.DateTimeField()

    class Meta:
        verbose_name = "change log seen"
        verbose_name_plural = "change log seen"

    def __str__(self) -> str:
        return f"{self.user_id} saw the change log at {self.seen_at:%Y-%m-%d %H:%M}"
