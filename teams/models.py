"""Teams of readers: memberships with a role, invitations, join links and reading-group sessions."""

import hashlib
import secrets
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Prefetch, Q, QuerySet
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import SafeString

from accounts.validators import single_line_condition, validate_single_line
from readinglist.markdown import as_markup, render_markdown


def new_token() -> str:
    """An unguessable URL-safe token (256 bits)."""
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def normalise_domain(text: str) -> str:
    """' @Example.com. ' → 'example.com' (one spelling to compare)."""
    return text.strip().lstrip("@").rstrip(".").lower()


class Team(models.Model):
    name = models.CharField(max_length=100, validators=[validate_single_line])
    slug = models.SlugField(max_length=100, unique=True)
    description = models.TextField(max_length=2_000, blank=True)
    # The feed URL is the only credential calendar apps can send, so it is a long random secret.
    calendar_token = models.CharField(max_length=64, unique=True, default=new_token)
    created = models.DateTimeField(default=timezone.now, editable=False)
    members = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="Membership", related_name="teams"
    )

    class Meta:
        ordering = ["name", "pk"]
        constraints = [
            # The name goes into mail subjects, where a line break would break the mail.
            models.CheckConstraint(
                condition=single_line_condition("name"), name="team_name_single_line"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("teams:detail", args=[self.slug])


def new_proof_code() -> str:
    return secrets.token_hex(16)


class TeamDomain(models.Model):
    """An email domain whose readers join the team by themselves, once an owner proved the
    domain is theirs: by a verified address of their own there, or by a DNS TXT record."""

    class Proof(models.TextChoices):
        EMAIL = "email", "owner's verified address"
        DNS = "dns", "DNS TXT record"

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="domains")
    domain = models.CharField(max_length=253)
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created = models.DateTimeField(default=timezone.now, editable=False)
    # The value the TXT record must carry; unguessable, so only who controls the zone can set it.
    proof_code = models.CharField(max_length=32, default=new_proof_code, editable=False)
    verified_at = models.DateTimeField(null=True, blank=True)
    verified_by = models.CharField(max_length=10, choices=Proof, blank=True)
    # A maintainer's revocation sticks: the owners cannot add the domain again.
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["domain", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["team", "domain"], name="teamdomain_unique_team_domain")
        ]

    def __str__(self) -> str:
        return f"{self.domain} for {self.team}"

    @property
    def is_active(self) -> bool:
        return self.verified_at is not None and self.revoked_at is None

    @property
    def txt_value(self) -> str:
        return f"readinglist-team-domain={self.proof_code}"


class MembershipRole(models.TextChoices):
    OWNER = "owner", "Owner"
    MEMBER = "member", "Member"


class Membership(models.Model):
    Role = MembershipRole

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=10, choices=Role, default=Role.MEMBER)
    joined = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["team", "-role", "joined", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["team", "user"], name="membership_unique_team_user"),
            models.CheckConstraint(
                condition=Q(role__in=MembershipRole.values), name="membership_role_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.team} ({self.get_role_display()})"

    @property
    def is_owner(self) -> bool:
        return self.role == self.Role.OWNER


class Invitation(models.Model):
    """An emailed, expiring, single-use way into a team. Only the token's hash is stored."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="invitations")
    email = models.EmailField()
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations_sent"
    )
    # The owner may let whoever holds the link accept it, whatever their address.
    any_email = models.BooleanField(
        "anyone with the link may accept",
        default=False,
    )
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    created = models.DateTimeField(default=timezone.now, editable=False)
    expires = models.DateTimeField()
    accepted_at = models.DateTimeField(null=True, blank=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        ordering = ["-created", "-pk"]
        indexes = [models.Index(fields=["team", "created"], name="invitation_team_created")]

    def __str__(self) -> str:
        return f"{self.email} to {self.team}"

    @property
    def is_expired(self) -> bool:
        return self.expires <= timezone.now()

    @property
    def is_used(self) -> bool:
        return self.accepted_at is not None

    def admits(self, email: str) -> bool:
        """Whether a reader with `email` may accept it (signing up or signed in)."""
        return self.any_email or email.lower() == self.email.lower()


class JoinLink(models.Model):
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="join_links")
    token = models.CharField(max_length=64, unique=True, default=new_token, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created = models.DateTimeField(default=timezone.now, editable=False)
    expires = models.DateTimeField(null=True, blank=True)
    max_uses = models.PositiveIntegerField(null=True, blank=True, validators=[MinValueValidator(1)])
    uses = models.PositiveIntegerField(default=0)
    revoked = models.BooleanField(default=False)

    class Meta:
        ordering = ["-created", "-pk"]

    def __str__(self) -> str:
        return f"Join link for {self.team}"

    def get_absolute_url(self) -> str:
        return reverse("teams:join", args=[self.token])

    @property
    def problem(self) -> str:
        """Why the link no longer works, or "" while it does."""
        if self.revoked:
            return "This join link was revoked by the team's owners."
        if self.expires is not None and self.expires <= timezone.now():
            return "This join link has expired."
        if self.max_uses is not None and self.uses >= self.max_uses:
            return "This join link has been used as many times as its owners allowed."
        return ""


class Session(models.Model):
    """A reading-group meeting: when, what to read, who leads, and the agenda."""

    AGENDA_MAX = 10_000

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="sessions")
    title = models.CharField(max_length=200, validators=[validate_single_line])
    starts_at = models.DateTimeField()
    sources = models.ManyToManyField("catalog.Source", blank=True, related_name="team_sessions")
    facilitator = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    duration_minutes = models.PositiveSmallIntegerField(
        "duration (minutes)",
        default=60,
        validators=[MinValueValidator(5), MaxValueValidator(12 * 60)],
    )
    place = models.CharField(
        max_length=200,
        blank=True,
        validators=[validate_single_line],
        help_text="A room or an address, if you meet in person.",
    )
    meeting_url = models.URLField(
        "meeting link", max_length=500, blank=True, help_text="A video call's address, if any."
    )
    agenda = models.TextField(max_length=AGENDA_MAX, blank=True, help_text="Markdown.")
    agenda_html = models.TextField(editable=False, blank=True)
    reminder_sent_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["starts_at", "pk"]
        indexes = [models.Index(fields=["team", "starts_at"], name="session_team_starts")]
        constraints = [
            models.CheckConstraint(
                condition=single_line_condition("title"), name="session_title_single_line"
            ),
        ]

    def __str__(self) -> str:
        return self.title

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.agenda_html = render_markdown(self.agenda)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "agenda" in update_fields:
            kwargs["update_fields"] = {*update_fields, "agenda_html"}
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("teams:session-detail", args=[self.team.slug, self.pk])

    @property
    def agenda_markup(self) -> SafeString:
        return as_markup(self.agenda_html)

    @property
    def ends_at(self) -> datetime:
        return self.starts_at + timedelta(minutes=self.duration_minutes)


class FollowedList(models.Model):
    """A reading list the team reads along, chosen by an owner; the team page shows how far
    its members are."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="followed_lists")
    reading_list = models.ForeignKey(
        "catalog.ReadingList", on_delete=models.CASCADE, related_name="team_follows"
    )
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["created", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["team", "reading_list"], name="followedlist_unique_team_list"
            )
        ]

    def __str__(self) -> str:
        return f"{self.team} follows {self.reading_list}"


class Departure(models.Model):
    """A reader who was a member and no longer is. Their old link to the team then tells them
    so, where everyone else (who was never a member) gets the plain 404."""

    class Way(models.TextChoices):
        REMOVED = "removed", "Removed by an owner"
        LEFT = "left", "Left"

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="departures")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="team_departures"
    )
    way = models.CharField(max_length=10, choices=Way)
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["team", "user"], name="departure_unique_team_user"),
        ]

    def __str__(self) -> str:
        return f"{self.user} out of {self.team} ({self.get_way_display()})"


class ReminderSettings(models.Model):
    """Whether a reader wants mail before their teams' sessions. Readers without a row do."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        primary_key=True,
        on_delete=models.CASCADE,
        related_name="reminder_settings",
    )
    session_reminders = models.BooleanField(
        "email me before my teams' reading-group sessions", default=True
    )

    class Meta:
        verbose_name = "reminder settings"
        verbose_name_plural = "reminder settings"

    def __str__(self) -> str:
        return f"{self.user_id}: reminders {'on' if self.session_reminders else 'off'}"


def with_sources[S: QuerySet[Any]](sessions: S) -> S:
    """`sessions` with their sources fetched, the team's own private ones included: the related
    manager alone leaves every private source out, and the planner lets a session name only its
    own team's, so whoever sees the session may see them."""
    from catalog.models import Source

    return sessions.prefetch_related(Prefetch("sources", queryset=Source.all_objects.all()))
