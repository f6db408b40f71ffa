"""Writes of the curator's inbox: adding found works, and a maintainer's triage."""

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from .entries import Entry
from .known import entry_keys, keys_of
from .models import SNOOZE, Candidate
from .scoring import Score, Scorer, suggested_tier


@dataclass
class Added:
    """What one batch of entries came to."""

    new: list[Candidate] = field(default_factory=list)
    known: int = 0
    unusable: int = 0
    # New works beyond the run's limit: not stored, not remembered, so a later run adds them.
    held_back: int = 0

    @property
    def relevant(self) -> int:
        return sum(candidate.relevant for candidate in self.new)


@dataclass
class RunNotes:
    """What a run could not do, for the operator's terminal and the maintainers' email."""

    skipped: dict[str, list[str]] = field(default_factory=dict)
    held_back: dict[str, int] = field(default_factory=dict)

    def skip(self, feed: str, reasons: list[str]) -> None:
        if reasons:
            self.skipped.setdefault(feed, []).extend(reasons)

    def hold_back(self, feed: str, count: int) -> None:
        if count:
            self.held_back[feed] = self.held_back.get(feed, 0) + count

    def lines(self) -> list[str]:
        found = []
        for feed, reasons in self.skipped.items():
            count = len(reasons)
            entries = f"{count} entr{'y' if count == 1 else 'ies'}"
            example = reasons[0] if count == 1 else f"for example {reasons[0]}"
            found.append(f"{entries} of {feed} could not be read ({example}).")
        for feed, count in self.held_back.items():
            found.append(
                f"{count} new entr{'y' if count == 1 else 'ies'} of {feed} wait for later runs "
                "(the per-feed limit of a run, CANDIDATES_MAX_NEW_PER_FEED)."
            )
        return found


def _candidate(
    entry: Entry, keys: list[str], origin: str, feed: str, score: Score, now: datetime
) -> Candidate:
    is_paper = origin == Candidate.Origin.ARXIV or bool(entry.arxiv or entry.doi)
    topics = [slug for slug, _p in score.topics]
    return Candidate(
        key=keys[0][:400],
        keys=keys,
        origin=origin,
        feed=feed[:200],
        title=entry.title,
        url=entry.url,
        authors=entry.authors,
        abstract=entry.abstract,
        categories=list(entry.categories),
        published=entry.published,
        relevance=score.relevance,
        relevant=score.relevant,
        suggested_topics=[list(pair) for pair in score.topics],
        topic_slugs=f",{','.join(topics)}," if topics else "",
        nearest=[list(triple) for triple in score.nearest],
        suggested_tier=suggested_tier(is_paper=is_paper, published=entry.published, now=now),
        found=now,
    )


def add_entries(
    entries: Iterable[Entry],
    *,
    origin: str,
    feed: str,
    scorer: Scorer,
    known: set[str],
    dry_run: bool = False,
    now: datetime | None = None,
    limit: int | None = None,
) -> Added:
    """Store the entries that are new works; `known` (every key already seen) grows with them.

    A work already catalogued, proposed or collected is counted, never stored again, so a
    second run over the same feed adds nothing. At most `limit` new works are stored, in the
    entries' order; the others are counted as held back. With dry_run nothing is written.
    """
    now = now or timezone.now()
    added = Added()
    fresh: list[tuple[Entry, list[str]]] = []
    for entry in entries:
        keys = entry_keys(entry)
        if not keys:
            added.unusable += 1
        elif known.intersection(keys):
            added.known += 1
        elif limit is not None and len(fresh) >= limit:
            added.held_back += 1
        else:
            known.update(keys)
            fresh.append((entry, keys))
    scores = scorer.score_many([(entry.title, entry.abstract) for entry, _keys in fresh])
    added.new = [
        _candidate(entry, keys, origin, feed, score, now)
        for (entry, keys), score in zip(fresh, scores, strict=True)
    ]
    if not dry_run and added.new:
        with transaction.atomic():
            # A concurrent run may have stored the same work a moment ago: its row stays.
            Candidate.objects.bulk_create(added.new, batch_size=500, ignore_conflicts=True)
    return added


@transaction.atomic
def dismiss(candidates: Iterable[Candidate], *, reason: str) -> int:
    """Dismissed work keeps its row (and keys), so it never returns as new."""
    ids = [candidate.pk for candidate in candidates]
    return Candidate.objects.filter(pk__in=ids).update(
        status=Candidate.Status.DISMISSED, status_reason=reason.strip(), snoozed_until=None
    )


@transaction.atomic
def snooze(candidates: Iterable[Candidate], *, now: datetime | None = None) -> int:
    until = (now or timezone.now()) + SNOOZE
    ids = [candidate.pk for candidate in candidates]
    return Candidate.objects.filter(pk__in=ids).update(
        status=Candidate.Status.SNOOZED, snoozed_until=until
    )


def mark_proposed(*, proposal_id: int, url: str, title: str) -> int:
    """The candidates naming the same work as a new proposal are now proposed."""
    keys = set(keys_of(url, title=title))
    if not keys:
        return 0
    waiting = Candidate.objects.exclude(status=Candidate.Status.PROPOSED)
    matching = [
        pk
        for pk, candidate_keys in waiting.values_list("pk", "keys")
        if keys.intersection(candidate_keys)
    ]
    return Candidate.objects.filter(pk__in=matching).update(
        status=Candidate.Status.PROPOSED, proposal_id=proposal_id
    )
