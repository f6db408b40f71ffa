"""The curator's inbox: works found by the collectors, scored against the catalog, triaged in
the admin. A work is stored once, under its strongest identity key, so a dismissed or proposed
work never comes back as new."""

from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from catalog.models import Source

SNOOZE = timedelta(days=30)


class CandidateQuerySet(models.QuerySet["Candidate"]):
    def inbox(self, *, now: datetime | None = None) -> "CandidateQuerySet":
        """New work, and snoozed work whose snooze has run out."""
        now = now or timezone.now()
        awake = Q(status=Candidate.Status.SNOOZED, snoozed_until__lte=now)
        return self.filter(Q(status=Candidate.Status.NEW) | awake)

    def relevant(self) -> "CandidateQuerySet":
        return self.filter(relevant=True)


class CandidateOrigin(models.TextChoices):
    ARXIV = "arxiv", "arXiv"
    FEED = "feed", "Feed"


class CandidateStatus(models.TextChoices):
    NEW = "new", "New"
    PROPOSED = "proposed", "Proposed"
    DISMISSED = "dismissed", "Dismissed"
    SNOOZED = "snoozed", "Snoozed"


class ReleaseStatus(models.TextChoices):
    TO_VERIFY = "to_verify", "New upstream release: re-verify"
    VERIFIED = "verified", "Re-verified"


class Candidate(models.Model):
    Origin = CandidateOrigin
    Status = CandidateStatus

    key = models.CharField(max_length=400, unique=True, help_text="The work's strongest key.")
    keys = models.JSONField(default=list, help_text="Every identity key of the work.")
    origin = models.CharField(max_length=10, choices=Origin)
    feed = models.CharField("found in", max_length=200)
    title = models.CharField(max_length=500)
    url = models.URLField("URL", max_length=2000)
    authors = models.TextField(blank=True)
    abstract = models.TextField(blank=True)
    categories = models.JSONField(default=list, blank=True)
    published = models.DateTimeField(null=True, blank=True)
    relevance = models.FloatField(default=0.0)
    relevant = models.BooleanField(default=False, help_text="At or above the relevance cut.")
    suggested_topics = models.JSONField(default=list, blank=True)
    # ", slug, slug," so that one topic filters with a plain substring match on any database.
    topic_slugs = models.CharField(max_length=500, blank=True, default="")
    nearest = models.JSONField(default=list, blank=True)
    suggested_tier = models.CharField(max_length=30, blank=True)
    status = models.CharField(max_length=10, choices=Status, default=Status.NEW)
    status_reason = models.TextField("reason", blank=True)
    snoozed_until = models.DateTimeField(null=True, blank=True)
    proposal = models.ForeignKey(
        "proposals.Proposal", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    found = models.DateTimeField(default=timezone.now, editable=False)
    updated = models.DateTimeField(auto_now=True)

    objects = CandidateQuerySet.as_manager()

    class Meta:
        ordering = ["-relevance", "-published", "pk"]
        indexes = [models.Index(fields=["status", "relevant", "-relevance"])]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=CandidateStatus.values),
                name="candidate_status_known",
            ),
            models.CheckConstraint(
                condition=Q(origin__in=CandidateOrigin.values),
                name="candidate_origin_known",
            ),
            models.CheckConstraint(
                condition=~Q(status=CandidateStatus.SNOOZED) | Q(snoozed_until__isnull=False),
                name="candidate_snooze_has_an_end",
            ),
        ]

    def __str__(self) -> str:
        return self.title

    @property
    def reason(self) -> str:
        """Why it scored as it did, in the catalog's own names."""
        titles = [title for _slug, title, _score in self.nearest[:2]]
        return f"close to {', '.join(titles)}" if titles else ""


class UpstreamRelease(models.Model):
    """A new major or minor release of a catalogued repository: not a new source, but a sign
    the source's page may be out of date, so it waits for a maintainer to re-verify it."""

    Status = ReleaseStatus

    source = models.ForeignKey(Source, on_delete=models.CASCADE, related_name="+")
    version = models.CharField(max_length=100)
    title = models.CharField(max_length=500, blank=True)
    url = models.URLField("URL", max_length=2000, blank=True)
    published = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status, default=Status.TO_VERIFY)
    found = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["status", "-published", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["source", "version"], name="release_once_per_source"),
            models.CheckConstraint(
                condition=Q(status__in=ReleaseStatus.values),
                name="release_status_known",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.source} {self.version}"


class FeedState(models.Model):
    """What the last fetch of one feed said, for conditional GETs and "since the last run"."""

    url = models.URLField("URL", max_length=2000, unique=True)
    etag = models.CharField(max_length=500, blank=True)
    last_modified = models.CharField(max_length=100, blank=True)
    last_success = models.DateTimeField(null=True, blank=True)
    last_checked = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True)
    skipped_entries = models.PositiveIntegerField(
        default=0, help_text="Entries of the last read that could not be used (a broken date…)."
    )
    held_back_entries = models.PositiveIntegerField(
        default=0,
        help_text="New entries of the last read left for later runs by the per-feed cap.",
    )

    class Meta:
        ordering = ["url"]

    def __str__(self) -> str:
        return self.url


class CandidateAlert(models.Model):
    """When a maintainer last had the daily email of new candidates, so it goes once a day."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="candidate_alert"
    )
    last_sent_on = models.DateField(null=True, blank=True)
    last_sent_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"Candidate alerts for {self.user}"
