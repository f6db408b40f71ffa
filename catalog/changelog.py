"""The catalog's change log: one way to record a change, whoever makes it.

The admin, the loader and moderation all call `record_change` (one change) or
`record_source_edit` (compare a snapshot taken before an edit with the source after it, and
record what a reader would care about: promoted, demoted, retired, replaced, link fixed,
re-verified, or updated).
"""

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime
from functools import partial

from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.db.models import Exists, OuterRef, Value
from django.db.models.functions import Greatest, Least
from django.utils import timezone

from accounts.models import User
from readinglist.pagecache import bump_reader_version

from .models import ChangeLogEntry, ChangeLogSeen, Source

Kind = ChangeLogEntry.Kind
Via = ChangeLogEntry.Via
# Fields whose change is an "updated" entry; the rest have a kind of their own.
DESCRIPTIVE_FIELDS = {
    "title": "title",
    "kind": "kind",
    "basis": "primary-source basis",
    "authors": "authors",
    "venue": "venue",
    "year": "year",
    "summary": "summary",
    "aliases": "aliases",
    "keywords": "keywords",
    "topics": "topics",
    "awaiting_evidence": "awaiting evidence",
}
HOME_CHANGES_LIMIT = 20


@dataclass(frozen=True)
class SourceSnapshot:
    """What a source looked like before an edit, as far as the change log cares."""

    title: str
    kind: str
    basis: str
    authors: str
    venue: str
    year: int | None
    summary: str
    aliases: str
    keywords: str
    topics: frozenset[int]
    awaiting_evidence: bool
    status: str
    url: str
    verified_on: date | None
    tier_id: int | None
    tier_name: str
    tier_position: int | None
    replaced_by_id: int | None


def snapshot(source: Source | None) -> SourceSnapshot | None:
    """A snapshot of a saved source (None for a source not saved yet). Reads its tier and
    topics, so callers that snapshot many sources should select_related/prefetch them."""
    if source is None or source.pk is None:
        return None
    tier = source.tier if source.tier_id else None
    return SourceSnapshot(
        title=source.title,
        kind=source.kind,
        basis=source.basis,
        authors=source.authors,
        venue=source.venue,
        year=source.year,
        summary=source.summary,
        aliases=source.aliases,
        keywords=source.keywords,
        topics=frozenset(topic.pk for topic in source.topics.all()),
        awaiting_evidence=source.awaiting_evidence,
        status=source.status,
        url=source.url,
        verified_on=source.verified_on,
        tier_id=source.tier_id,
        tier_name=tier.name if tier else "",
        tier_position=tier.position if tier else None,
        replaced_by_id=source.replaced_by_id,
    )


def _empty(value: object) -> bool:
    return value is None or value == "" or value == frozenset()


def introduced_fields(snapshots: Iterable[SourceSnapshot | None]) -> frozenset[str]:
    """The descriptive fields no source has a value in yet: fields an upgrade just added.

    The load that first fills them in brings the database up to its catalog file; it changes
    nothing a reader was shown, so it is not news (an upgrade adding keywords would otherwise
    log every source as "updated", on /changes/ and in every follower's digest).
    """
    unfilled = set(DESCRIPTIVE_FIELDS)
    for before in filter(None, snapshots):
        unfilled = {name for name in unfilled if _empty(getattr(before, name))}
        if not unfilled:
            break
    return frozenset(unfilled)


def record_change(
    *,
    source: Source | None,
    kind: str,
    detail: str = "",
    actor: User | AnonymousUser | None = None,
    via: str,
    title: str = "",
) -> ChangeLogEntry:
    """Write one change log entry. `title` names a source that no longer exists."""
    return ChangeLogEntry.objects.create(
        source=source if source is not None and source.pk else None,
        source_title=(source.title if source is not None else title)[:300] or "Untitled",
        kind=kind,
        detail=detail,
        actor=actor if actor is not None and actor.is_authenticated else None,
        via=via,
    )


def changes_between(
    before: SourceSnapshot | None,
    after: SourceSnapshot | None,
    *,
    introduced: frozenset[str] = frozenset(),
) -> list[tuple[str, str]]:
    """The (kind, detail) pairs a reader would want to hear about, from two snapshots; fields
    `introduced` by an upgrade (see introduced_fields) are filled in, not changed."""
    if after is None:
        return []
    if before is None:
        return [(Kind.ADDED, f"Added to {after.tier_name}." if after.tier_name else "")]
    found: list[tuple[str, str]] = []
    if before.status != after.status:
        if after.status == Source.Status.RETIRED:
            found.append((Kind.RETIRED, "Retired from the catalog."))
        else:
            found.append((Kind.UPDATED, "Returned to the catalog."))
    if before.tier_id != after.tier_id:
        # Tiers are ordered from Start here down to Further reading: a smaller position is higher.
        up = (after.tier_position or 0) < (before.tier_position or 0)
        found.append(
            (
                Kind.PROMOTED if up else Kind.DEMOTED,
                f"Moved from {before.tier_name} to {after.tier_name}.",
            )
        )
    if after.replaced_by_id and before.replaced_by_id != after.replaced_by_id:
        replacement = Source.objects.filter(pk=after.replaced_by_id).values_list("title", flat=True)
        found.append((Kind.REPLACED, f"Superseded by {replacement.first() or 'another source'}."))
    if before.url != after.url:
        if after.url:
            found.append((Kind.LINK_FIXED, f"Link changed to {after.url}."))
        else:
            found.append((Kind.UPDATED, "Link removed."))
    if after.verified_on and (before.verified_on is None or after.verified_on > before.verified_on):
        found.append((Kind.REVERIFIED, f"Re-verified on {after.verified_on.isoformat()}."))
    changed = [
        label
        for name, label in DESCRIPTIVE_FIELDS.items()
        if name not in introduced and getattr(before, name) != getattr(after, name)
    ]
    if changed:
        found.append((Kind.UPDATED, "Changed " + ", ".join(changed) + "."))
    return found


def record_source_edit(
    *,
    before: SourceSnapshot | None,
    source: Source,
    actor: User | AnonymousUser | None = None,
    via: str,
    introduced: frozenset[str] = frozenset(),
) -> list[ChangeLogEntry]:
    """Record every change between `before` (a snapshot, or None for a new source) and `source`
    as it is now. Returns the entries written."""
    return [
        record_change(source=source, kind=kind, detail=detail, actor=actor, via=via)
        for kind, detail in changes_between(before, snapshot(source), introduced=introduced)
    ]


def last_seen_changes(user: User) -> datetime | None:
    """When the reader last saw the change log on the home page, or None if they never did.
    The row, or its absence, is kept on `user` by the one-to-one: one query per request."""
    try:
        return user.changelog_seen.seen_at
    except ChangeLogSeen.DoesNotExist:
        return None


def changes_since_last_visit(user: User, limit: int = HOME_CHANGES_LIMIT) -> list[ChangeLogEntry]:
    """The changes a signed-in reader has not seen: since their last home-page visit, or since
    they joined. Newest first, at most `limit`."""
    since = last_seen_changes(user) or user.date_joined
    return list(ChangeLogEntry.objects.since(since).for_display()[:limit])


def _remember_if_news(user: User, moment: datetime) -> bool:
    # One statement, judged against the stored moment rather than this (possibly stale) `user`.
    stored = OuterRef("seen_at")
    logged = ChangeLogEntry.objects.filter(
        created__gt=Least(stored, Value(moment)), created__lte=Greatest(stored, Value(moment))
    )
    return bool(
        ChangeLogSeen.objects.filter(Exists(logged), user_id=user.pk).update(seen_at=moment)
    )


def mark_changes_seen(user: User, moment: datetime | None = None) -> bool:
    """Remember that the reader has now seen the change log up to `moment` (default: now).

    The row changes only when a change was logged between the remembered moment and `moment`:
    otherwise the reader's "since your last visit" is the same either way, and the home page,
    read on every visit, would write for nothing. A reader with a row gets one statement,
    judged against the stored moment; when no row matches, PostgreSQL writes nothing. Returns
    whether it remembered `moment`.
    """
    moment = moment or timezone.now()
    if last_seen_changes(user) is not None:
        written = _remember_if_news(user, moment)
    else:
        # A first visit, or a request that has not heard of one: nothing is stored before a
        # change was logged since the reader joined.
        start, end = sorted((user.date_joined, moment))
        if not ChangeLogEntry.objects.filter(created__gt=start, created__lte=end).exists():
            return False
        _, created = ChangeLogSeen.objects.get_or_create(
            user_id=user.pk, defaults={"seen_at": moment}
        )
        written = created or _remember_if_news(user, moment)
    if written:
        user.changelog_seen = ChangeLogSeen(user=user, seen_at=moment)
        # The update sends no signal: the reader's cached pages (the home page showed these
        # changes as new) are dropped here, after commit like every other version change.
        transaction.on_commit(partial(bump_reader_version, user.pk))
    return written
