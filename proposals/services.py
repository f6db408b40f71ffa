"""Proposals and moderation: each write validates and saves in one transaction.

The reader's limits live here too, next to the writes that enforce them, so the form and the
service say the same.
"""

from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.sites.models import Site
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.db.models import Case, F, Q, When
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.text import slugify

from accounts.models import User
from catalog.changelog import record_change
from catalog.models import ChangeLogEntry, ListEntry, Source, Tier, Topic

from .duplicates import find_duplicates
from .fields import ANSWER_NAMES, COPIED_TO_SOURCE, missing_for_tier
from .models import REASON_MAX_LENGTH, Decision, Proposal

WAFER_LIST = "wafer-gpu-performance"
MODERATE_PERMISSION = "proposals.add_decision"
# Answers a reader gives besides the topics; the service never trusts a caller to pass more.
PROPOSAL_FIELDS = [name for name in ANSWER_NAMES if name != "topics"]


def pending_limit_problem(user: User) -> str:
    """A message when the reader already has as many proposals waiting as allowed, else ""."""
    pending = Proposal.objects.by(user).pending().count()
    if pending >= settings.PROPOSALS_MAX_PENDING:
        return (
            f"You already have {pending} proposals waiting for a decision, the most a reader "
            f"may have at once ({settings.PROPOSALS_MAX_PENDING}). Please wait until maintainers "
            "decide some of them."
        )
    return ""


def daily_limit_problem(user: User) -> str:
    """A message when the reader has proposed as many new sources in 24 hours as allowed."""
    today = Proposal.objects.by(user).submitted_since(timezone.now() - timedelta(days=1)).count()
    if today >= settings.PROPOSALS_MAX_PER_DAY:
        return (
            f"You have proposed {today} sources in the last 24 hours, the daily limit "
            f"({settings.PROPOSALS_MAX_PER_DAY}). Please try again tomorrow."
        )
    return ""


def limit_problem(user: User) -> str:
    """Why the reader may not propose a new source right now, or ""."""
    return pending_limit_problem(user) or daily_limit_problem(user)


# Writes by readers.


def _duplicate_errors(proposal: Proposal) -> dict[str, str]:
    report = find_duplicates(url=proposal.url, exclude_proposal=proposal if proposal.pk else None)
    if report.source:
        return {"url": f"This source is already in the catalog as “{report.source.title}”."}
    if report.proposal:
        return {"url": "This source has already been proposed and is waiting for a decision."}
    return {}


def _save_answers(proposal: Proposal, answers: dict[str, Any], topics: Iterable[Topic]) -> Proposal:
    unknown = set(answers) - set(PROPOSAL_FIELDS)
    if unknown:
        raise TypeError(f"Unexpected proposal fields: {', '.join(sorted(unknown))}")
    for name, value in answers.items():
        setattr(proposal, name, value)
    topics = list(topics)
    if not topics and proposal.pk:
        topics = list(proposal.topics.all())
    given = {name: getattr(proposal, name) for name in PROPOSAL_FIELDS}
    tier_slug = proposal.tier.slug if proposal.tier_id else ""
    missing = missing_for_tier(tier_slug, {**given, "topics": topics})
    if missing:
        raise ValidationError(missing)
    proposal.full_clean(exclude=["proposer", "topics"])
    errors = _duplicate_errors(proposal)
    if errors:
        raise ValidationError(errors)
    try:
        with transaction.atomic():
            proposal.save()
    except IntegrityError as exc:
        # Two readers proposing the same URL at the same moment: the unique constraint decides.
        raise ValidationError(
            {"url": "This source has already been proposed and is waiting for a decision."}
        ) from exc
    proposal.topics.set(topics)
    return proposal


def _lock_user(user: User) -> None:
    # Serialises one reader's submissions so two tabs cannot both pass the limits.
    User.objects.select_for_update().filter(pk=user.pk).first()


@transaction.atomic
def submit_proposal(
    *,
    proposer: User,
    topics: Iterable[Topic] = (),
    fetched_metadata: dict | None = None,
    **answers: Any,
) -> Proposal:
    _lock_user(proposer)
    problem = limit_problem(proposer)
    if problem:
        raise ValidationError(problem, code="limit")
    proposal = Proposal(
        proposer=proposer,
        status=Proposal.Status.PENDING,
        fetched_metadata=fetched_metadata or {},
    )
    return _save_answers(proposal, answers, topics)


@transaction.atomic
def resubmit_proposal(
    *, proposal: Proposal, by: User, topics: Iterable[Topic] = (), **answers: Any
) -> Proposal:
    """The proposer answers a maintainer's request for changes; the proposal waits again."""
    _lock_user(by)
    proposal = Proposal.objects.select_for_update().get(pk=proposal.pk)
    if proposal.proposer_id != by.pk:
        raise PermissionDenied("Only the proposer may edit a proposal.")
    if not proposal.can_be_edited:
        raise ValidationError(
            "Only a proposal with changes requested can be edited and resubmitted."
        )
    # A resubmitted proposal waits again, so it counts against the pending limit.
    problem = pending_limit_problem(by)
    if problem:
        raise ValidationError(problem, code="limit")
    proposal.status = Proposal.Status.PENDING
    proposal.submitted_at = timezone.now()
    return _save_answers(proposal, answers, topics)


# Writes by maintainers.


def _require_maintainer(user: User) -> None:
    if not (user.is_active and user.is_staff and user.has_perm(MODERATE_PERMISSION)):
        raise PermissionDenied("Only maintainers decide proposals.")


def _lock_open(proposal: Proposal) -> Proposal:
    locked = Proposal.objects.select_for_update().select_related("proposer").get(pk=proposal.pk)
    if not locked.is_open:
        raise ValidationError(
            f"This proposal was already decided ({locked.get_status_display().lower()}).",
            code="decided",
        )
    return locked


def _checked_reason(reason: str, *, required: bool = True) -> str:
    reason = (reason or "").strip()
    if required and not reason:
        raise ValidationError({"reason": "Give the proposer a reason."})
    if len(reason) > REASON_MAX_LENGTH:
        raise ValidationError(
            {"reason": f"A reason can be at most {REASON_MAX_LENGTH:,} characters."}
        )
    return reason


def _decide(
    proposal: Proposal, *, by: User, action: str, reason: str, spam: bool = False
) -> Decision:
    decision = Decision.objects.create(
        proposal=proposal, maintainer=by, action=action, reason=reason, spam=spam
    )
    transaction.on_commit(lambda: notify_proposer(decision))
    return decision


def notify_proposer(decision: Decision) -> None:
    proposal = decision.proposal
    # The same site record allauth's emails use, so links point at the configured domain.
    context = {
        "decision": decision,
        "proposal": proposal,
        "site_url": f"{settings.SITE_SCHEME}://{Site.objects.get_current().domain}",
    }
    send_mail(
        render_to_string("proposals/email/decision_subject.txt", context).strip(),
        render_to_string("proposals/email/decision.txt", context),
        None,
        [proposal.proposer.email],
    )


def unique_slug(title: str) -> str:
    base = slugify(title)[:100].strip("-") or "source"
    taken = set(
        Source.objects.filter(Q(slug=base) | Q(slug__startswith=f"{base}-")).values_list(
            "slug", flat=True
        )
    )
    slug, n = base, 2
    while slug in taken:
        slug, n = f"{base}-{n}", n + 1
    return slug


def _place_after(source: Source, after: Source) -> ListEntry | None:
    """Insert the new source right after `after` in the section that holds it, preferring the
    Wafer list; later entries shift down by one."""
    entry = (
        ListEntry.objects.filter(source=after)
        .select_related("section__reading_list")
        .order_by(
            Case(When(section__reading_list__slug=WAFER_LIST, then=0), default=1),
            "section__reading_list__position",
            "section__position",
        )
        .first()
    )
    if entry is None:
        return None
    later = ListEntry.objects.filter(section=entry.section, position__gt=entry.position)
    # (section, position) is unique: move the tail out of the way, then back one step further on.
    offset = 10_000
    later.update(position=F("position") + offset)
    ListEntry.objects.filter(section=entry.section, position__gt=offset).update(
        position=F("position") - offset + 1
    )
    return ListEntry.objects.create(
        section=entry.section, source=source, position=entry.position + 1
    )


# What a maintainer may correct before accepting: what accepting copies, and the list position.
ACCEPT_OVERRIDES = {*COPIED_TO_SOURCE, "after_source"}


def _accepted_values(proposal: Proposal, overrides: dict[str, Any]) -> dict[str, Any]:
    """The new source's fields: the maintainer's correction where given, else the answer."""
    values: dict[str, Any] = {}
    for source_field in COPIED_TO_SOURCE:
        if source_field in overrides:
            values[source_field] = overrides[source_field]
        elif source_field == "topics":
            values[source_field] = list(proposal.topics.all())
        else:
            values[source_field] = proposal.value_for_source(source_field)
    return values


def _refuse_duplicate_of(source: Source, proposal: Proposal) -> None:
    """A work already catalogued or proposed under any of its keys (URL, arXiv id, DOI,
    repository) is not accepted a second time."""
    report = find_duplicates(url=source.url, exclude_proposal=proposal)
    if report.source is not None:
        raise ValidationError(
            {
                "url": f"This work is already in the catalog as “{report.source.title}” "
                f"(same {report.matched_by})."
            }
        )
    if report.proposal is not None:
        raise ValidationError(
            {
                "url": f"This work is also proposed as “{report.proposal.title}”, "
                "waiting for a decision."
            }
        )


@transaction.atomic
def accept_proposal(
    *,
    proposal: Proposal,
    by: User,
    overrides: dict[str, Any] | None = None,
    reason: str = "",
) -> Source:
    """Create the source, its topics, tier and list position, and link the proposal to it.

    The proposal row is locked first, so accepting twice (two tabs) creates one source: the second
    call finds the proposal decided and is refused.
    """
    _require_maintainer(by)
    reason = _checked_reason(reason, required=False)
    overrides = dict(overrides or {})
    unknown = set(overrides) - ACCEPT_OVERRIDES
    if unknown:
        raise TypeError(f"Unexpected overrides: {', '.join(sorted(unknown))}")
    proposal = _lock_open(proposal)
    values = _accepted_values(proposal, overrides)
    topics, tier = values.pop("topics"), values["tier"]
    source = Source(
        **values, verified_on=timezone.localdate() if tier.slug == Tier.FRONTIER else None
    )
    source.slug = unique_slug(source.title)
    source.full_clean(exclude=["topics", "related"])
    _refuse_duplicate_of(source, proposal)
    source.save()
    source.topics.set(topics)
    record_change(
        source=source,
        kind=ChangeLogEntry.Kind.ADDED,
        detail=f"Added to {tier.name} from a reader's proposal.",
        actor=by,
        via=ChangeLogEntry.Via.MODERATION,
    )
    after = overrides.get("after_source", proposal.after_source)
    if after is not None:
        _place_after(source, after)
    replaced = proposal.replaces
    if replaced is not None and replaced.replaced_by_id is None:
        replaced.replaced_by = source
        replaced.save(update_fields=["replaced_by", "updated"])
        record_change(
            source=replaced,
            kind=ChangeLogEntry.Kind.REPLACED,
            detail=f"Superseded by {source.title}.",
            actor=by,
            via=ChangeLogEntry.Via.MODERATION,
        )
    proposal.status = Proposal.Status.ACCEPTED
    proposal.resulting_source = source
    proposal.save(update_fields=["status", "resulting_source", "updated"])
    _decide(proposal, by=by, action=Decision.Action.ACCEPTED, reason=reason)
    return source


@transaction.atomic
def request_changes(*, proposal: Proposal, by: User, reason: str) -> Decision:
    _require_maintainer(by)
    reason = _checked_reason(reason)
    proposal = _lock_open(proposal)
    proposal.status = Proposal.Status.CHANGES_REQUESTED
    proposal.save(update_fields=["status", "updated"])
    return _decide(proposal, by=by, action=Decision.Action.CHANGES_REQUESTED, reason=reason)


@transaction.atomic
def reject_proposal(*, proposal: Proposal, by: User, reason: str, spam: bool = False) -> Decision:
    _require_maintainer(by)
    reason = _checked_reason(reason)
    proposal = _lock_open(proposal)
    proposal.status = Proposal.Status.REJECTED
    proposal.save(update_fields=["status", "updated"])
    return _decide(proposal, by=by, action=Decision.Action.REJECTED, reason=reason, spam=spam)


@transaction.atomic
def bulk_reject(*, proposals: Iterable[Proposal], by: User, reason: str, spam: bool = True) -> int:
    """Reject many open proposals at once (spam); decided ones are left as they are.

    Returns how many were rejected.
    """
    _require_maintainer(by)
    reason = _checked_reason(reason)
    locked = list(
        Proposal.objects.select_for_update()
        .select_related("proposer")
        .filter(pk__in=[p.pk for p in proposals])
        .open()
    )
    now = timezone.now()
    for proposal in locked:
        proposal.status = Proposal.Status.REJECTED
    Proposal.objects.filter(pk__in=[p.pk for p in locked]).update(
        status=Proposal.Status.REJECTED, updated=now
    )
    for proposal in locked:
        _decide(proposal, by=by, action=Decision.Action.REJECTED, reason=reason, spam=spam)
    return len(locked)
