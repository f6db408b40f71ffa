"""Readers propose sources; maintainers decide. Every decision is kept."""

from datetime import datetime

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.db.models.functions import Length
from django.db.models.lookups import LessThanOrEqual
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from catalog.models import Source, Tier, Topic
from catalog.models.sources import MAX_YEAR, MIN_YEAR
from catalog.urlcanon import canonical_url_or_error

from .fields import ANSWERS, CLAIM_FIELDS, COPIED_TO_SOURCE, LONG_TEXT_MAX, max_length

URL_MAX_LENGTH = max_length("url")
REASON_MAX_LENGTH = LONG_TEXT_MAX

PRIMARY_BASES = [(value, label) for value, label in Source.Basis.choices if value != "none"]


def length_limits(prefix: str, limits: dict[str, int]) -> list[models.CheckConstraint]:
    """One check constraint per text field, so no writer can store more than the forms allow
    (SQLite ignores varchar lengths, and text columns have none)."""
    return [
        models.CheckConstraint(
            condition=LessThanOrEqual(Length(name), limit),
            name=f"{prefix}_{name}_max_length",
            violation_error_message=f"{name.replace('_', ' ').capitalize()} can be at most "
            f"{limit:,} characters.",
        )
        for name, limit in limits.items()
    ]


class ProposalQuerySet(models.QuerySet["Proposal"]):
    def open(self) -> "ProposalQuerySet":
        return self.filter(status__in=Proposal.OPEN_STATUSES)

    def pending(self) -> "ProposalQuerySet":
        return self.filter(status=Proposal.Status.PENDING)

    def by(self, user: User | int) -> "ProposalQuerySet":
        return self.filter(proposer=user)

    def submitted_since(self, moment: datetime) -> "ProposalQuerySet":
        return self.filter(created__gte=moment)

    def queue(self) -> "ProposalQuerySet":
        """The maintainers' queue: oldest submission first."""
        return self.order_by("submitted_at", "pk")


class DecisionQuerySet(models.QuerySet["Decision"]):
    def public_log(self) -> "DecisionQuerySet":
        """Final decisions (accepted or rejected) contributors may learn from; spam stays out."""
        return (
            self.filter(action__in=[Decision.Action.ACCEPTED, Decision.Action.REJECTED], spam=False)
            .select_related("proposal__resulting_source")
            .order_by("-created", "-pk")
        )


# Every free-text answer, with the limit the form states and the database enforces.
TEXT_LIMITS = {answer.name: answer.max_length for answer in ANSWERS if answer.max_length}


class ProposalStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    CHANGES_REQUESTED = "changes_requested", "Changes requested"
    ACCEPTED = "accepted", "Accepted"
    REJECTED = "rejected", "Rejected"


OPEN_PROPOSAL_STATUSES = [ProposalStatus.PENDING, ProposalStatus.CHANGES_REQUESTED]


class Proposal(models.Model):
    Status = ProposalStatus
    OPEN_STATUSES = OPEN_PROPOSAL_STATUSES

    proposer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="proposals"
    )
    url = models.URLField("URL", max_length=URL_MAX_LENGTH)
    title = models.CharField(max_length=max_length("title"))
    kind = models.CharField(max_length=20, choices=Source.Kind)
    topics = models.ManyToManyField(Topic, related_name="+", blank=True)
    tier = models.ForeignKey(Tier, on_delete=models.PROTECT, related_name="+")
    authors = models.CharField(max_length=max_length("authors"), blank=True)
    year = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MinValueValidator(MIN_YEAR), MaxValueValidator(MAX_YEAR)]
    )
    venue = models.CharField(max_length=max_length("venue"), blank=True)
    # Core and Frontier proposals answer these; the form and the services require them by tier.
    mechanism = models.TextField("what it teaches", blank=True, max_length=max_length("mechanism"))
    basis = models.CharField(
        "kind of primary source", max_length=20, choices=PRIMARY_BASES, blank=True
    )
    basis_explanation = models.TextField(
        "why it is a primary source", blank=True, max_length=max_length("basis_explanation")
    )
    worth_reading = models.TextField(
        "why it is worth reading", blank=True, max_length=max_length("worth_reading")
    )
    after_source = models.ForeignKey(
        Source,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name="belongs after",
    )
    replaces = models.ForeignKey(
        Source, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    hardware_software = models.TextField(
        "hardware and software", blank=True, max_length=max_length("hardware_software")
    )
    workload = models.TextField(blank=True, max_length=max_length("workload"))
    precision_algorithm = models.TextField(
        "precision and algorithm", blank=True, max_length=max_length("precision_algorithm")
    )
    baseline = models.TextField(blank=True, max_length=max_length("baseline"))
    correctness_method = models.TextField(
        "correctness method", blank=True, max_length=max_length("correctness_method")
    )
    conflict_of_interest = models.TextField(
        blank=True, max_length=max_length("conflict_of_interest")
    )
    # What the metadata fetchers found for the URL, kept for maintainers to compare with the
    # proposer's answers; never typed by the proposer.
    fetched_metadata = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=20, choices=Status, default=Status.PENDING)
    resulting_source = models.ForeignKey(
        Source, null=True, blank=True, on_delete=models.PROTECT, related_name="proposals"
    )
    created = models.DateTimeField(default=timezone.now, editable=False)
    updated = models.DateTimeField(auto_now=True)
    submitted_at = models.DateTimeField(default=timezone.now)

    objects = ProposalQuerySet.as_manager()

    class Meta:
        ordering = ["submitted_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["url"],
                condition=Q(status__in=OPEN_PROPOSAL_STATUSES),
                name="proposal_unique_open_url",
            ),
            models.CheckConstraint(
                condition=Q(status__in=ProposalStatus.values),
                name="proposal_status_valid",
            ),
            models.CheckConstraint(
                condition=Q(basis__in=["", *(value for value, _ in PRIMARY_BASES)]),
                name="proposal_basis_is_primary",
            ),
            models.CheckConstraint(
                condition=~Q(status=ProposalStatus.ACCEPTED) | Q(resulting_source__isnull=False),
                name="proposal_accepted_has_source",
            ),
            models.CheckConstraint(
                condition=Q(**{name: "" for name in CLAIM_FIELDS})
                | (
                    ~Q(hardware_software="")
                    & ~Q(workload="")
                    & ~Q(precision_algorithm="")
                    & ~Q(baseline="")
                    & ~Q(correctness_method="")
                ),
                name="proposal_claim_all_or_none",
            ),
            models.CheckConstraint(condition=~Q(title=""), name="proposal_title_not_empty"),
            models.CheckConstraint(condition=~Q(url=""), name="proposal_url_not_empty"),
            *length_limits("proposal", TEXT_LIMITS),
        ]
        indexes = [
            models.Index(fields=["status", "submitted_at"], name="proposal_queue"),
            models.Index(fields=["proposer", "status"], name="proposal_by_proposer"),
        ]

    def __str__(self) -> str:
        return self.title

    def get_absolute_url(self) -> str:
        return reverse("proposals:proposal-detail", args=[self.pk])

    def clean(self) -> None:
        errors: dict[str, str] = {}
        self.url, url_error = canonical_url_or_error(self.url)
        if url_error:
            errors["url"] = url_error
        filled = [name for name in CLAIM_FIELDS if getattr(self, name).strip()]
        if filled and len(filled) < len(CLAIM_FIELDS):
            for name in CLAIM_FIELDS:
                if name not in filled:
                    errors[name] = "A performance claim needs this too, or leave all five empty."
        if errors:
            raise ValidationError(errors)

    def value_for_source(self, source_field: str) -> object:
        """What accepting this proposal copies into the new source's field."""
        if source_field == "summary":
            return self.mechanism or self.worth_reading
        if source_field == "basis":
            return self.basis or Source.Basis.NONE
        return getattr(self, COPIED_TO_SOURCE[source_field])

    @property
    def is_open(self) -> bool:
        return self.status in self.OPEN_STATUSES

    @property
    def can_be_edited(self) -> bool:
        return self.status == self.Status.CHANGES_REQUESTED

    @property
    def has_claim(self) -> bool:
        return bool(self.hardware_software)

    def claim(self) -> list[tuple[str, str]]:
        parts = []
        for name in CLAIM_FIELDS:
            field = self._meta.get_field(name)
            # The claim's parts are the proposal's own text fields, never a relation.
            assert isinstance(field, models.Field)
            parts.append((str(field.verbose_name), getattr(self, name)))
        return parts


class DecisionAction(models.TextChoices):
    ACCEPTED = "accepted", "Accepted"
    CHANGES_REQUESTED = "changes_requested", "Changes requested"
    REJECTED = "rejected", "Rejected"


class Decision(models.Model):
    Action = DecisionAction

    proposal = models.ForeignKey(Proposal, on_delete=models.CASCADE, related_name="decisions")
    # Decisions are the record of who decided: a maintainer with decisions cannot be deleted.
    maintainer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    action = models.CharField(max_length=20, choices=Action)
    reason = models.TextField(blank=True, max_length=REASON_MAX_LENGTH)
    # Spam is rejected and kept, but not published in the decision log.
    spam = models.BooleanField(default=False)
    created = models.DateTimeField(default=timezone.now, editable=False)

    objects = DecisionQuerySet.as_manager()

    class Meta:
        ordering = ["-created", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(action__in=DecisionAction.values),
                name="decision_action_valid",
            ),
            models.CheckConstraint(
                condition=Q(action=DecisionAction.ACCEPTED) | ~Q(reason=""),
                name="decision_reason_required",
            ),
            models.CheckConstraint(
                condition=Q(spam=False) | Q(action=DecisionAction.REJECTED),
                name="decision_spam_is_rejection",
            ),
            *length_limits("decision", {"reason": REASON_MAX_LENGTH}),
        ]
        indexes = [models.Index(fields=["action", "-created"], name="decision_log")]

    def __str__(self) -> str:
        return f"{self.get_action_display()}: {self.proposal}"


class MaintainerAlert(models.Model):
    """A maintainer's choice to hear about new proposals by a daily email, and when the last
    one went out, so sending twice on one day sends nothing the second time."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="proposal_alert"
    )
    daily_email = models.BooleanField("email me new proposals daily", default=False)
    last_sent_on = models.DateField(null=True, blank=True)
    last_sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "proposals_maintainer_alert"

    def __str__(self) -> str:
        return f"Proposal alerts for {self.user}"
