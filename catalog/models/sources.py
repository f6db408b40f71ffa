from datetime import date
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils import timezone

from ..catalog_document import AUTHORS_MAX_LENGTH
from ..identity import (
    InvalidIdentifier,
    check_arxiv,
    check_doi,
    check_isbn,
    check_repository,
    work_keys_or_empty,
)
from ..querysets import (
    PublicSourceManager,
    SourceQuerySet,
    TierQuerySet,
    TopicQuerySet,
)
from ..urlcanon import canonical_url_or_error

MIN_YEAR, MAX_YEAR = 1900, 2100


class Tier(models.Model):
    slug = models.SlugField(unique=True)
    name = models.CharField(max_length=80)
    description = models.TextField(blank=True)
    rule = models.TextField(blank=True, help_text="When a source belongs in this tier.")
    position = models.PositiveSmallIntegerField(default=0)

    START_HERE, CORE, FRONTIER, FURTHER_READING = (
        "start-here",
        "core",
        "frontier",
        "further-reading",
    )

    objects = TierQuerySet.as_manager()

    class Meta:
        ordering = ["position", "name"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("pages:tier-detail", args=[self.slug])

    @property
    def is_frontier(self) -> bool:
        return self.slug == self.FRONTIER


class Topic(models.Model):
    slug = models.SlugField(unique=True)
    name = models.CharField(max_length=80)
    description = models.TextField(blank=True)
    parent = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="children"
    )
    position = models.PositiveSmallIntegerField(default=0)

    objects = TopicQuerySet.as_manager()
    # Set on the top-level topics pages.context.topic_tree returns: their children, counted.
    subtopics: list["Topic"]

    class Meta:
        ordering = ["position", "name"]
        constraints = [
            models.CheckConstraint(condition=~Q(parent=F("pk")), name="topic_not_own_parent"),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("pages:topic-detail", args=[self.slug])

    def clean(self) -> None:
        if self.parent_id and self.parent is not None and self.parent.parent_id:
            raise ValidationError({"parent": "Topics nest one level only: pick a top-level topic."})
        if self.parent_id and self.pk and self.parent_id == self.pk:
            raise ValidationError({"parent": "A topic cannot be its own parent."})


class SourceLinkStatus(models.TextChoices):
    UNCHECKED = "unchecked", "Not checked yet"
    OK = "ok", "Works"
    BLOCKED = "blocked", "Blocks link checkers"
    BROKEN = "broken", "Broken"


class Source(models.Model):
    class Kind(models.TextChoices):
        PAPER = "paper", "Paper"
        BOOK = "book", "Book"
        DOCUMENTATION = "documentation", "Documentation"
        SPECIFICATION = "specification", "Specification"
        REPOSITORY = "repository", "Repository"
        ARTICLE = "article", "Article"
        COURSE = "course", "Course"
        WHITEPAPER = "whitepaper", "Whitepaper"
        WEBSITE = "website", "Website"
        WATCH = "watch", "Watch item"

    class Basis(models.TextChoices):
        MECHANISM_PAPER = "mechanism-paper", "Paper that introduced the mechanism"
        SPECIFICATION = "specification", "Specification or official documentation"
        IMPLEMENTATION = "implementation", "Repository that implements it"
        IMPLEMENTER_REPORT = "implementer-report", "Direct implementer report"
        NONE = "none", "Not a primary source"

    class Status(models.TextChoices):
        PUBLISHED = "published", "Published"
        RETIRED = "retired", "Retired"
        # Seen only by those a registered rule names (catalog.querysets.register_private_rule);
        # the default manager never returns it, so every listing leaves it out unasked.
        PRIVATE = "private", "Private"

    LinkStatus = SourceLinkStatus

    slug = models.SlugField(unique=True, max_length=120)
    title = models.CharField(max_length=300)
    url = models.URLField(max_length=2000, blank=True, verbose_name="URL")
    kind = models.CharField(max_length=20, choices=Kind)
    basis = models.CharField(max_length=20, choices=Basis, default=Basis.NONE)
    full_title = models.CharField(
        max_length=500, blank=True, help_text="The full published title, when the title is short."
    )
    authors = models.CharField(
        max_length=AUTHORS_MAX_LENGTH,
        blank=True,
        help_text='Every author, comma-separated; a list over 25 may end with "and others".',
    )
    venue = models.CharField(max_length=300, blank=True)
    year = models.PositiveSmallIntegerField(null=True, blank=True)
    summary = models.TextField(blank=True)
    aliases = models.CharField(
        max_length=300, blank=True, help_text="Other names and acronyms, comma-separated."
    )
    # Readers describe a need in words a summary seldom uses ("model too large for one GPU" for
    # tensor parallelism); these are searched beside the summary.
    keywords = models.TextField(
        blank=True,
        help_text=(
            "Phrases a reader might search with that the title and summary do not use: the "
            "problem it solves, plain words for its ideas. Separated by semicolons."
        ),
    )
    tier = models.ForeignKey(Tier, on_delete=models.PROTECT, related_name="sources")
    topics = models.ManyToManyField(Topic, related_name="sources", blank=True)
    related = models.ManyToManyField("self", blank=True, symmetrical=True)
    replaced_by = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="replaces"
    )
    status = models.CharField(max_length=10, choices=Status, default=Status.PUBLISHED)
    awaiting_evidence = models.BooleanField(
        default=False, help_text="A frontier topic with no primary source yet."
    )
    verified_on = models.DateField(null=True, blank=True)
    # The identifiers a work goes by besides its URL (catalog.identity); filled from the URL
    # when it names one, so every lookup reads these columns.
    arxiv_id = models.CharField("arXiv id", max_length=40, blank=True, db_index=True)
    doi = models.CharField("DOI", max_length=200, blank=True, db_index=True)
    isbn = models.CharField(
        "ISBN", max_length=13, blank=True, db_index=True, help_text="Stored as ISBN-13."
    )
    repository = models.CharField(
        max_length=140,
        blank=True,
        db_index=True,
        help_text="GitHub owner/name, only on the source that is the repository.",
    )
    verified_from_url = models.URLField(
        "facts checked at", max_length=2000, blank=True, help_text="The public record checked."
    )
    verified_from_date = models.DateField("facts checked on", null=True, blank=True)
    # A frontier source enters the core only once all three kinds of evidence exist.
    evidence_spec_url = models.URLField(
        "specification or paper",
        max_length=2000,
        blank=True,
        help_text="The technical specification or original paper.",
    )
    evidence_implementation_url = models.URLField(
        "shipped implementation",
        max_length=2000,
        blank=True,
        help_text="A released implementation people can run.",
    )
    evidence_measurement_url = models.URLField(
        "reproducible measurement",
        max_length=2000,
        blank=True,
        help_text="Hardware, workload, precision, baseline and correctness method stated.",
    )
    # Link health, written by `check_links` (interop and freshness).
    link_status = models.CharField(
        max_length=10, choices=LinkStatus, default=LinkStatus.UNCHECKED, editable=False
    )
    link_status_code = models.PositiveSmallIntegerField(null=True, blank=True, editable=False)
    link_error = models.CharField(max_length=300, blank=True, editable=False)
    link_checked_at = models.DateTimeField(null=True, blank=True, editable=False)
    link_failing_since = models.DateTimeField(null=True, blank=True, editable=False)
    created = models.DateTimeField(default=timezone.now, editable=False)
    updated = models.DateTimeField(auto_now=True)

    # The first manager is the default: private sources are left out of every query through it
    # (listings, related managers, dumpdata without --all). `all_objects.visible_to(reader)` is
    # the one way to reach them; foreign keys reach them through the plain base manager.
    objects = PublicSourceManager()
    all_objects = SourceQuerySet.as_manager()

    class Meta:
        ordering = ["title"]
        base_manager_name = "all_objects"
        constraints = [
            # Private sources may repeat a URL: two teams may each keep the same intranet page.
            models.UniqueConstraint(
                fields=["url"],
                condition=~Q(url="") & ~Q(status="private"),
                name="source_unique_url",
            ),
            models.CheckConstraint(condition=~Q(url__contains=" "), name="source_url_has_no_space"),
            models.CheckConstraint(
                condition=Q(year__isnull=True) | Q(year__gte=MIN_YEAR, year__lte=MAX_YEAR),
                name="source_year_in_range",
            ),
            models.CheckConstraint(
                condition=Q(awaiting_evidence=False) | Q(url=""),
                name="source_awaiting_evidence_has_no_url",
            ),
            models.CheckConstraint(
                condition=~Q(replaced_by=F("pk")), name="source_not_replaced_by_itself"
            ),
            models.CheckConstraint(condition=~Q(title=""), name="source_title_not_empty"),
            models.CheckConstraint(
                condition=Q(link_status__in=SourceLinkStatus.values),
                name="source_link_status_valid",
            ),
        ]
        indexes = [
            models.Index(fields=["status", "tier"], name="source_status_tier"),
            models.Index(fields=["year"], name="source_year"),
            models.Index(fields=["-created"], name="source_created"),
        ]

    def __str__(self) -> str:
        return self.title

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.fill_identifiers_from_url()
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("pages:source-detail", args=[self.slug])

    def clean(self) -> None:
        errors: dict[str, str] = {}
        self.url, url_error = canonical_url_or_error(self.url)
        if url_error:
            errors["url"] = url_error
        if self.year is not None and not MIN_YEAR <= self.year <= MAX_YEAR:
            errors["year"] = f"Enter a year between {MIN_YEAR} and {MAX_YEAR}."
        if self.tier_id and self.tier.is_frontier and not self.verified_on:
            errors["verified_on"] = "Frontier entries must carry a verified-on date."
        errors |= self._clean_identifiers()
        if self.awaiting_evidence and self.url:
            errors["url"] = "A source awaiting evidence has no URL yet."
        if self.replaced_by_id and self.replaced_by_id == self.pk:
            errors["replaced_by"] = "A source cannot replace itself."
        if errors:
            raise ValidationError(errors)

    def _clean_identifiers(self) -> dict[str, str]:
        errors = {}
        checks = {
            "arxiv_id": check_arxiv,
            "doi": check_doi,
            "isbn": check_isbn,
            "repository": check_repository,
        }
        for name, check in checks.items():
            value = getattr(self, name).strip()
            try:
                setattr(self, name, check(value) if value else "")
            except InvalidIdentifier as exc:
                errors[name] = f"{str(exc)[0].upper()}{str(exc)[1:]}."
        return errors

    def fill_identifiers_from_url(self) -> None:
        """Identifiers the URL names (an arXiv page, a DOI page, the repository itself) are
        stored too, so lookups by identifier find sources whose file gave only a URL."""
        keys = work_keys_or_empty(self.url)
        self.arxiv_id = self.arxiv_id or keys.arxiv
        self.doi = (self.doi or keys.doi).lower()  # DOIs ignore case; lookups compare lower
        if keys.is_repository_root:
            self.repository = self.repository or keys.repository

    @property
    def shows_full_title(self) -> bool:
        return bool(self.full_title) and self.full_title.casefold() != self.title.casefold()

    @property
    def is_primary(self) -> bool:
        return self.basis != self.Basis.NONE

    @property
    def alias_list(self) -> list[str]:
        return [alias.strip() for alias in self.aliases.split(",") if alias.strip()]

    @property
    def keyword_list(self) -> list[str]:
        return [phrase.strip() for phrase in self.keywords.split(";") if phrase.strip()]

    @property
    def is_retired(self) -> bool:
        return self.status == self.Status.RETIRED

    @property
    def is_private(self) -> bool:
        return self.status == self.Status.PRIVATE

    def age_in_days(self, today: date | None = None) -> int | None:
        if not self.verified_on:
            return None
        return ((today or timezone.localdate()) - self.verified_on).days

    @property
    def is_stale(self) -> bool:
        age = self.age_in_days()
        return age is not None and age > settings.FRONTIER_STALE_AFTER_DAYS

    @property
    def link_long_failing(self) -> bool:
        """Broken for LINKCHECK_WARN_AFTER_DAYS or more: the source page says so, quietly.

        Counted in calendar days, like age_in_days, so the answer changes only at midnight: the
        page cache keeps a page for the day it was rendered on (see readinglist.pagecache).
        """
        if self.link_status != self.LinkStatus.BROKEN or not self.link_failing_since:
            return False
        days = (timezone.localdate() - timezone.localdate(self.link_failing_since)).days
        return days >= settings.LINKCHECK_WARN_AFTER_DAYS
