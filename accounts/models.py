from typing import Any, ClassVar

from django.contrib.auth.models import AbstractUser, BaseUserManager
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models.functions import Lower

from .validators import single_line_condition, validate_single_line


def validate_time_zone(value: str) -> None:
    import zoneinfo

    if value not in zoneinfo.available_timezones():
        raise ValidationError(f"“{value}” is not a time zone.")


class UserManager(BaseUserManager["User"]):
    use_in_migrations = True

    def _create_user(self, email: str, password: str | None, **extra: Any) -> "User":
        if not email:
            raise ValueError("An email address is required.")
        user = self.model(email=self.normalize_email(email), **extra)
        user.set_password(password)
        user.save(using=self._db)
        return user

    def create_user(self, email: str, password: str | None = None, **extra: Any) -> "User":
        extra.setdefault("is_staff", False)
        extra.setdefault("is_superuser", False)
        return self._create_user(email, password, **extra)

    def create_superuser(self, email: str, password: str | None = None, **extra: Any) -> "User":
        extra.setdefault("is_staff", True)
        extra.setdefault("is_superuser", True)
        return self._create_user(email, password, **extra)


class User(AbstractUser):
    """A reader. The email address is the identity; there is no username."""

    # Django's documented way to drop an inherited field; the stubs type these as always present.
    username = None  # type: ignore[assignment]
    first_name = None  # type: ignore[assignment]
    last_name = None  # type: ignore[assignment]
    email = models.EmailField("email address", unique=True)
    display_name = models.CharField(
        max_length=80,
        blank=True,
        validators=[validate_single_line],
        help_text="The name teammates see. Defaults to your email name.",
    )
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
    REQUIRED_FIELDS: ClassVar[list[str]] = []

    # The stubs expect Django's username-based UserManager; this one is keyed on the email.
    objects: ClassVar[UserManager] = UserManager()  # type: ignore[assignment]

    class Meta:
        constraints = [
            models.UniqueConstraint(Lower("email"), name="user_email_unique_ci"),
            # Teammates' mail carries the name (invitations name who invites).
            models.CheckConstraint(
                condition=single_line_condition("display_name"),
                name="user_display_name_single_line",
            ),
        ]

    def __str__(self) -> str:
        return self.public_name

    @property
    def public_name(self) -> str:
        return self.display_name or self.email.split("@", 1)[0]

    def get_full_name(self) -> str:
        return self.public_name

    def get_short_name(self) -> str:
        return self.public_name
