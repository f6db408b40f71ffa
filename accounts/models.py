from django.conf import settings
from django.contrib.auth.models import AbstractUser, BaseUserManager
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Length, Lower
from django.db.models.lookups import LessThanOrEqual
from django.urls import reverse
from django.utils import timezone

from .markdown import as_markup, render_markdown
from .note_querysets import NoteQuerySet
from .querysets import BookmarkQuerySet


def validate_time_zone(value):
    import zoneinfo

    if value not in zoneinfo.available_timezones():
        raise ValidationError(f"“{value}” is not a time zone.")


class UserManager(BaseUserManager):
    use_in_migrations = True

    def _create_user(self, email, password, **extra):
        if not email:
            raise ValueError("An email address is required.")
        user = self.model(email=self.normalize_email(email), **extra)
        user.set_password(password)
        user.save(using=self._db)
        return user

    def create_user(self, email, password=None, **extra):
        extra.setdefault("is_staff", False)
        extra.setdefault("is_superuser", False)
        return self._create_user(email, password, **extra)

    def create_superuser(self, email, password=None, **extra):
        extra.setdefault("is_staff", True)
        extra.setdefault("is_superuser", True)
        return self._create_user(email, password, **extra)


class User(AbstractUser):
    """A reader. The email address is the identity; there is no username."""

    username = None
    first_name = None
    last_name = None
    email = models.EmailField("email address", unique=True)
    display_name = models.CharField(
        max_length=80, blank=True, help_text="The name teammates see. Defaults to your email name."
    )
    # When the reader last saw the catalog's change log on the home page ("what changed").
    last_seen_changes_at = models.DateTimeField(null=True, blank=True, editable=False)
    # Session times are shown to each reader in their own zone. A database default too: rows
    # written by code that predates the column still get a zone.
    time_zone = models.CharField(
        max_length=64,
        default="UTC",
        db_default="UTC",
        validators=[validate_time_zone],
        help_text="Reading-group sessions are shown in this time zone.",
    )

    USERNAME_FIELD = "email"
    REQUIRED_FIELDS = []

    objects = UserManager()

    class Meta:
        constraints = [
            models.UniqueConstraint(Lower("email"), name="user_email_unique_ci"),
        ]

    def __str__(self):
        return self.public_name

    @property
    def public_name(self):
        return self.display_name or self.email.split("@", 1)[0]

    def get_full_name(self):
        return self.public_name

    def get_short_name(self):
        return self.public_name


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

    def __str__(self):
        return f"{self.user} · {self.source} · {self.get_status_display()}"


# Module level so that both the fields and Meta's check constraints (which cannot see the class
# body) read the same numbers.
NOTE_BODY_MAX = 20_000
NOTE_QUOTE_MAX = 2_000
NOTE_LOCATOR_MAX = 200


class NoteVisibility(models.TextChoices):
    PRIVATE = "private", "Private (only you)"
    TEAM = "team", "Team (every signed-in member, with your name)"


def _at_most(field_name: str, limit: int) -> models.CheckConstraint:
    return models.CheckConstraint(
        condition=LessThanOrEqual(Length(field_name), limit),
        name=f"note_{field_name}_max_length",
    )


class Note(models.Model):
    """A reader's note on a source: Markdown body, optional quote and locator, private or team.

    The body is rendered to sanitised HTML once, on save, and stored in body_html; pages show the
    stored HTML and never parse Markdown per view.
    """

    BODY_MAX = NOTE_BODY_MAX
    QUOTE_MAX = NOTE_QUOTE_MAX
    LOCATOR_MAX = NOTE_LOCATOR_MAX
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
    created = models.DateTimeField(default=timezone.now, editable=False)
    edited = models.DateTimeField(null=True, blank=True, editable=False)
    # Deleting hides a note at once but keeps the row for a minute so it can be undone.
    deleted_at = models.DateTimeField(null=True, blank=True, editable=False)

    objects = NoteQuerySet.as_manager()

    class Meta:
        ordering = ["-created", "-pk"]
        constraints = [
            models.CheckConstraint(condition=~Q(body=""), name="note_body_not_empty"),
            _at_most("body", NOTE_BODY_MAX),
            _at_most("quote", NOTE_QUOTE_MAX),
            _at_most("locator", NOTE_LOCATOR_MAX),
            models.CheckConstraint(
                condition=Q(visibility__in=NoteVisibility.values), name="note_visibility_valid"
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
                fields=["deleted_at"],
                condition=Q(deleted_at__isnull=False),
                name="note_deleted_at",
            ),
        ]

    def __str__(self):
        return f"{self.user} on {self.source}"

    def save(self, *args, **kwargs):
        update_fields = kwargs.get("update_fields")
        if update_fields is None or "body" in update_fields:
            self.body_html = render_markdown(self.body)
            if update_fields is not None:
                kwargs["update_fields"] = {*update_fields, "body_html"}
        super().save(*args, **kwargs)

    def get_absolute_url(self):
        return reverse("notes:detail", args=[self.pk])

    @property
    def body_markup(self):
        return as_markup(self.body_html)

    @property
    def is_team(self):
        return self.visibility == self.Visibility.TEAM

    @property
    def is_deleted(self):
        return self.deleted_at is not None
