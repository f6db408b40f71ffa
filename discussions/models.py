"""Team discussions on a source: threads (optionally quoting a passage, optionally a question),
their replies, and the notifications that tell members about replies and mentions."""

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Length
from django.db.models.lookups import LessThanOrEqual
from django.urls import reverse
from django.utils.safestring import SafeString

from readinglist.markdown import as_markup, render_markdown

from .querysets import NotificationQuerySet, ReplyQuerySet, ThreadQuerySet

BODY_MAX = 20_000
TITLE_MAX = 200
QUOTE_MAX = 2_000
CONTEXT_MAX = 200


def _render_body(row: "Thread | Reply", kwargs: dict[str, Any]) -> None:
    update_fields = kwargs.get("update_fields")
    if update_fields is None or "body" in update_fields:
        row.body_html = render_markdown(row.body)
        if update_fields is not None:
            kwargs["update_fields"] = {*update_fields, "body_html"}


class Thread(models.Model):
    """A conversation a member starts on a source, seen by their team's members only.

    The quote is a W3C Web Annotation TextQuoteSelector: the exact passage with a little of the
    text before and after it, which is what a text fragment (`#:~:text=`) needs to find it.
    """

    BODY_MAX = BODY_MAX
    TITLE_MAX = TITLE_MAX
    QUOTE_MAX = QUOTE_MAX
    CONTEXT_MAX = CONTEXT_MAX

    team = models.ForeignKey("teams.Team", on_delete=models.CASCADE, related_name="threads")
    # PROTECT: sources are retired, never deleted, so no discussion is lost with one.
    source = models.ForeignKey("catalog.Source", on_delete=models.PROTECT, related_name="threads")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="threads"
    )
    title = models.CharField(max_length=TITLE_MAX)
    body = models.TextField(max_length=BODY_MAX, blank=True, help_text="Markdown.")
    body_html = models.TextField(editable=False, blank=True)
    quote_exact = models.TextField(max_length=QUOTE_MAX, blank=True)
    quote_prefix = models.CharField(max_length=CONTEXT_MAX, blank=True)
    quote_suffix = models.CharField(max_length=CONTEXT_MAX, blank=True)
    is_question = models.BooleanField(default=False)
    answered_by_reply = models.ForeignKey(
        "Reply", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    hidden_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # An owner marks a question settled at a reading-group session, after it.
    resolved_in_session = models.ForeignKey(
        "teams.Session", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    resolved_at = models.DateTimeField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    edited_at = models.DateTimeField(null=True, blank=True)
    deleted_at = models.DateTimeField(null=True, blank=True)

    objects = ThreadQuerySet.as_manager()

    class Meta:
        ordering = ["-created", "-pk"]
        constraints = [
            models.CheckConstraint(condition=~Q(title=""), name="thread_title_not_empty"),
            models.CheckConstraint(
                condition=LessThanOrEqual(Length("body"), BODY_MAX), name="thread_body_max_length"
            ),
            models.CheckConstraint(
                condition=LessThanOrEqual(Length("quote_exact"), QUOTE_MAX),
                name="thread_quote_max_length",
            ),
        ]
        indexes = [
            models.Index(fields=["source", "team", "-created"], name="thread_source_team"),
            models.Index(
                fields=["team", "-created"],
                condition=Q(is_question=True, answered_by_reply__isnull=True),
                name="thread_open_questions",
            ),
        ]

    def __str__(self) -> str:
        return self.title

    def save(self, *args: Any, **kwargs: Any) -> None:
        _render_body(self, kwargs)
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("discussions:thread", args=[self.pk])

    @property
    def body_markup(self) -> SafeString:
        return as_markup(self.body_html)

    @property
    def is_deleted(self) -> bool:
        return self.deleted_at is not None

    @property
    def is_hidden(self) -> bool:
        return self.hidden_by_id is not None

    @property
    def is_open(self) -> bool:
        """Replies may still be added: neither deleted by its author nor hidden by an owner."""
        return not (self.is_deleted or self.is_hidden)

    @property
    def is_answered(self) -> bool:
        return self.answered_by_reply_id is not None


class Reply(models.Model):
    BODY_MAX = BODY_MAX

    thread = models.ForeignKey(Thread, on_delete=models.CASCADE, related_name="replies")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="thread_replies"
    )
    body = models.TextField(max_length=BODY_MAX, help_text="Markdown.")
    body_html = models.TextField(editable=False, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    edited_at = models.DateTimeField(null=True, blank=True)
    deleted_at = models.DateTimeField(null=True, blank=True)

    objects = ReplyQuerySet.as_manager()

    class Meta:
        ordering = ["created", "pk"]
        verbose_name_plural = "replies"
        constraints = [
            models.CheckConstraint(condition=~Q(body=""), name="reply_body_not_empty"),
            models.CheckConstraint(
                condition=LessThanOrEqual(Length("body"), BODY_MAX), name="reply_body_max_length"
            ),
        ]
        indexes = [models.Index(fields=["thread", "created"], name="reply_thread_created")]

    def __str__(self) -> str:
        return f"{self.author} on {self.thread_id}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        _render_body(self, kwargs)
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return f"{reverse('discussions:thread', args=[self.thread_id])}#reply-{self.pk}"

    @property
    def body_markup(self) -> SafeString:
        return as_markup(self.body_html)

    @property
    def is_deleted(self) -> bool:
        return self.deleted_at is not None


class NotificationKind(models.TextChoices):
    MENTION = "mention", "mentioned you"
    REPLY = "reply", "replied"


class Notification(models.Model):
    """Something a member should see: a reply in a thread they take part in, or a mention."""

    Kind = NotificationKind

    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    thread = models.ForeignKey(Thread, on_delete=models.CASCADE, related_name="notifications")
    reply = models.ForeignKey(
        Reply, on_delete=models.CASCADE, null=True, blank=True, related_name="notifications"
    )
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=10, choices=Kind)
    created = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)
    # Set when a mail told the recipient (at once or in their digest): no notification is
    # mailed twice, and one read on the site before its mail went out is never mailed.
    emailed_at = models.DateTimeField(null=True, blank=True)

    objects = NotificationQuerySet.as_manager()

    class Meta:
        ordering = ["-created", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(kind__in=NotificationKind.values), name="notification_kind_valid"
            ),
        ]
        indexes = [
            models.Index(
                fields=["recipient", "-created"],
                condition=Q(read_at__isnull=True),
                name="notification_unread",
            ),
            models.Index(fields=["recipient", "-created"], name="notification_recipient"),
            # The mail runs look for what is unread and not yet mailed, across all readers.
            models.Index(
                fields=["recipient"],
                condition=Q(read_at__isnull=True, emailed_at__isnull=True),
                name="notification_unmailed",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.actor} {self.get_kind_display()} for {self.recipient}"


class EmailMode(models.TextChoices):
    AT_ONCE = "at_once", "at once"
    DAILY = "daily", "in the daily digest"
    NEVER = "never", "never"


class NotificationSettings(models.Model):
    """How a reader hears about replies and mentions by email. Kept here, not on the user row:
    a reader without a row gets the default, so the row is written only when they choose."""

    EmailMode = EmailMode
    DEFAULT_MODE = EmailMode.DAILY

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_settings"
    )
    email_mode = models.CharField(
        "Email me about replies and mentions",
        max_length=10,
        choices=EmailMode,
        default=DEFAULT_MODE,
    )
    # The last mail of either kind: "at once" mails keep a quiet interval after it, and the
    # daily digest goes out at most once per local day.
    last_mailed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "notification settings"
        constraints = [
            models.CheckConstraint(
                condition=Q(email_mode__in=EmailMode.values), name="notification_email_mode_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user}: {self.get_email_mode_display()}"
