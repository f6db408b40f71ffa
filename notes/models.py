from collections.abc import Collection, Iterable
from typing import Any, Self

from django.conf import settings
from django.db import models
from django.db.models import F, Model, Q
from django.db.models.deletion import Collector
from django.db.models.functions import Length
from django.db.models.lookups import LessThanOrEqual
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import SafeString

from readinglist.markdown import as_markup, render_markdown

from .querysets import NoteQuerySet

BODY_MAX = 20_000
QUOTE_MAX = 2_000
LOCATOR_MAX = 200


class NoteVisibility(models.TextChoices):
    PRIVATE = "private", "Private (only you)"
    TEAM = "team", "Team (the team's members, with your name)"


def unshare_with_deleted_team(
    collector: Collector, field: models.Field[Any, Any], sub_objs: Iterable[Model], using: str
) -> None:
    """A deleted team's notes stay with their authors, private to them.

    Both columns change in one UPDATE: set one at a time (as SET_NULL would), a row would break
    the check that a note has a team exactly when it is shared.
    """
    pks = [note.pk for note in sub_objs]
    field.model._base_manager.using(using).filter(pk__in=pks).update(
        team=None, visibility=NoteVisibility.PRIVATE
    )


class Note(models.Model):
    """A reader's note on a source: Markdown body, optional quote and locator, private to its
    author or shared with one of the author's teams.

    The body is rendered to sanitised HTML once, on save, and stored in body_html; pages show the
    stored HTML and never parse Markdown per view.
    """

    BODY_MAX = BODY_MAX
    QUOTE_MAX = QUOTE_MAX
    LOCATOR_MAX = LOCATOR_MAX

    Visibility = NoteVisibility

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notes"
    )
    # PROTECT: sources are retired, never deleted, so a reader's notes are never lost with one.
    source = models.ForeignKey("catalog.Source", on_delete=models.PROTECT, related_name="notes")
    body = models.TextField(max_length=BODY_MAX, help_text="Markdown.")
    body_html = models.TextField(editable=False)
    quote = models.TextField(max_length=QUOTE_MAX, blank=True)
    locator = models.CharField(
        max_length=LOCATOR_MAX, blank=True, help_text="Page, section or figure."
    )
    visibility = models.CharField(max_length=10, choices=Visibility, default=Visibility.PRIVATE)
    team = models.ForeignKey(
        "teams.Team",
        on_delete=unshare_with_deleted_team,
        null=True,
        blank=True,
        related_name="notes",
    )
    created = models.DateTimeField(default=timezone.now, editable=False)
    edited = models.DateTimeField(null=True, blank=True, editable=False)
    # Deleting hides a note at once but keeps the row for a minute so it can be undone.
    deleted_at = models.DateTimeField(null=True, blank=True, editable=False)

    objects = NoteQuerySet.as_manager()

    # Set on every note read from the database (from_db), not a column.
    loaded_team_id: int | None

    class Meta:
        ordering = ["-created", "-pk"]
        constraints = [
            models.CheckConstraint(condition=~Q(body=""), name="note_body_not_empty"),
            models.CheckConstraint(
                condition=LessThanOrEqual(Length("body"), BODY_MAX), name="note_body_max_length"
            ),
            models.CheckConstraint(
                condition=LessThanOrEqual(Length("quote"), QUOTE_MAX),
                name="note_quote_max_length",
            ),
            models.CheckConstraint(
                condition=LessThanOrEqual(Length("locator"), LOCATOR_MAX),
                name="note_locator_max_length",
            ),
            models.CheckConstraint(
                condition=Q(visibility__in=NoteVisibility.values), name="note_visibility_valid"
            ),
            models.CheckConstraint(
                condition=Q(visibility=NoteVisibility.TEAM, team__isnull=False)
                | Q(visibility=NoteVisibility.PRIVATE, team__isnull=True),
                name="note_team_iff_shared",
            ),
            models.CheckConstraint(
                condition=Q(edited__isnull=True) | Q(edited__gte=F("created")),
                name="note_edited_after_created",
            ),
        ]
        indexes = [
            models.Index(
                fields=["source", "visibility", "-created"], name="note_source_vis_created"
            ),
            models.Index(fields=["user", "-created"], name="note_user_created"),
            models.Index(
                fields=["team", "-created"],
                condition=Q(team__isnull=False),
                name="note_team_created",
            ),
            models.Index(
                fields=["deleted_at"],
                condition=Q(deleted_at__isnull=False),
                name="note_deleted_at",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} on {self.source}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        update_fields = kwargs.get("update_fields")
        if update_fields is None or "body" in update_fields:
            self.body_html = render_markdown(self.body)
            if update_fields is not None:
                kwargs["update_fields"] = {*update_fields, "body_html"}
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("notes:detail", args=[self.pk])

    @property
    def body_markup(self) -> SafeString:
        return as_markup(self.body_html)

    @classmethod
    def from_db(
        cls,
        db: str | None,
        field_names: Collection[str],
        values: Collection[Any],
        *args: Any,
        **kwargs: Any,
    ) -> Self:
        note = super().from_db(db, field_names, values, *args, **kwargs)
        # The team the note was shared with when loaded: moving or unsharing a note concerns
        # that team's pages too (notes.apps registers both with the page cache).
        note.loaded_team_id = note.__dict__.get("team_id")
        return note

    @property
    def is_team(self) -> bool:
        return self.visibility == self.Visibility.TEAM

    @property
    def is_deleted(self) -> bool:
        return self.deleted_at is not None
