"""Forks: a copy of a path or a curated list that remembers its origin, and what the origin has
changed since (added, removed and moved steps), each change one step to take.

The fork keeps `origin_snapshot`, the origin's sources in order when it was forked or last took
a change. What changed upstream is the difference between that snapshot and the origin now; a
change taken applies to the fork and to the snapshot alike, so it is not offered again.
Curated lists are only read here: a fork never writes to the catalog.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from django.core.exceptions import ValidationError
from django.db import transaction

from catalog.models import ListEntry, ListSection, ReadingList, Source

from .filling import PlannedSection, fill_path
from .models import ChangeAction, Path, PathStep
from .ownership import title_from
from .services import add_step, create_path, locked, record, renumber, step_source_ids
from .team_only import not_placeable, refusal

if TYPE_CHECKING:
    from accounts.models import User
    from teams.models import Team

    from .querysets import Reader

Kind = Literal["added", "removed", "moved"]


@dataclass(frozen=True)
class Forked:
    path: Path
    # The origin's team-only steps the fork may not hold (it is not its team's own path seen by
    # the team alone): the fork is made without them.
    team_only_left_out: int


def fork_path(origin: Path, user: User, *, team: Team | None, visibility: str) -> Forked:
    sections = list(origin.sections.order_by("position", "pk"))
    steps = origin.steps.order_by("section__position", "section_id", "position", "pk")
    by_section: dict[int, PlannedSection] = {s.pk: PlannedSection(s.title) for s in sections}
    for section_id, source_id, note in steps.values_list("section_id", "source_id", "note"):
        by_section[section_id].steps.append((source_id, note))
    with transaction.atomic():
        fork = _new_fork(origin.title, origin.description, user, team, visibility)
        filled = fill_path(fork, user, [by_section[s.pk] for s in sections])
        fork.forked_from = origin
        # The team-only steps left out stay in the snapshot: not offered again as a change.
        fork.origin_snapshot = step_source_ids(origin)
        fork.save(update_fields=["forked_from", "origin_snapshot"])
        record(fork, user, ChangeAction.CREATED, f"Forked from “{origin.title}”")
    return Forked(fork, filled.team_only)


def fork_list(reading_list: ReadingList, user: User, *, team: Team | None, visibility: str) -> Path:
    plan = [
        PlannedSection(section.title, [(entry.source_id, "") for entry in section.entries.all()])
        for section in ListSection.objects.filter(reading_list=reading_list)
        .order_by("position")
        .prefetch_related("entries")
    ]
    with transaction.atomic():
        fork = _new_fork(reading_list.title, reading_list.description, user, team, visibility)
        fill_path(fork, user, plan)
        fork.forked_from_list = reading_list
        fork.origin_snapshot = list_source_ids(reading_list)
        fork.save(update_fields=["forked_from_list", "origin_snapshot"])
        record(fork, user, ChangeAction.CREATED, f"Forked the list “{reading_list.title}”")
    return fork


def _new_fork(title: str, description: str, user: User, team: Team | None, visibility: str) -> Path:
    return create_path(
        user,
        title_from(title, suffix=" (fork)"),
        description=description[:20_000],
        team=team,
        visibility=visibility,
        section_titles=(),
    )


def list_source_ids(reading_list: ReadingList) -> list[int]:
    """A curated list's sources in its order, each once (a source in two sections counts where
    it first appears, as on a fork)."""
    ids = ListEntry.objects.filter(section__reading_list=reading_list).order_by(
        "section__position", "position"
    )
    return list(dict.fromkeys(ids.values_list("source_id", flat=True)))


@dataclass(frozen=True)
class Origin:
    """What the fork's reader may know of its origin: its sources now, its title and address
    when they may see it; `visible` False says only that it is out of their sight."""

    visible: bool
    title: str = ""
    url: str = ""
    source_ids: tuple[int, ...] = ()


def origin_of(fork: Path, reader: Reader) -> Origin | None:
    """None when the fork has no origin (never forked, or the origin was deleted)."""
    if fork.forked_from_list_id:
        reading_list = fork.forked_from_list
        assert reading_list is not None
        ids = tuple(list_source_ids(reading_list))
        return Origin(True, reading_list.title, reading_list.get_absolute_url(), ids)
    if not fork.forked_from_id:
        return None
    origin = Path.objects.visible_to(reader).filter(pk=fork.forked_from_id).first()
    if origin is None:
        return Origin(False)
    return Origin(True, origin.title, origin.get_absolute_url(), tuple(step_source_ids(origin)))


@dataclass(frozen=True)
class Change:
    kind: Kind
    source: Source

    @property
    def token(self) -> str:
        return f"{self.kind}:{self.source.pk}"


def changed_ids(snapshot: list[int], now: list[int]) -> list[tuple[Kind, int]]:
    """Added (in the origin now, not at the snapshot), removed (the other way round) and moved
    (kept, but no longer in the same order relative to the others: the fewest such sources,
    those outside the longest run the two orders share)."""
    then_set, now_set = set(snapshot), set(now)
    changes: list[tuple[Kind, int]] = [("added", pk) for pk in now if pk not in then_set]
    changes += [("removed", pk) for pk in snapshot if pk not in now_set]
    place = {pk: index for index, pk in enumerate(now)}
    kept = [pk for pk in snapshot if pk in now_set]
    in_order = longest_increasing([place[pk] for pk in kept])
    changes += [("moved", pk) for index, pk in enumerate(kept) if index not in in_order]
    return changes


def longest_increasing(values: list[int]) -> set[int]:
    """The indexes of one longest strictly increasing subsequence of `values`."""
    tails: list[int] = []  # the smallest tail value of an increasing run of each length
    tail_index: list[int] = []
    previous = [-1] * len(values)
    for index, value in enumerate(values):
        length = bisect_left(tails, value)
        if length == len(tails):
            tails.append(value)
            tail_index.append(index)
        else:
            tails[length] = value
            tail_index[length] = index
        previous[index] = tail_index[length - 1] if length else -1
    chosen: set[int] = set()
    index = tail_index[-1] if tail_index else -1
    while index != -1:
        chosen.add(index)
        index = previous[index]
    return chosen


def upstream_changes(fork: Path, origin: Origin, reader: Reader) -> list[Change]:
    """The origin's changes the fork may take: a team-only source the reader may not see, or
    the fork may not hold, is left out, so its title never shows here."""
    ids = changed_ids(list(fork.origin_snapshot or []), list(origin.source_ids))
    wanted = [pk for _, pk in ids]
    barred = not_placeable(fork, wanted)
    sources = Source.all_objects.visible_to(reader).in_bulk(wanted)
    return [Change(kind, sources[pk]) for kind, pk in ids if pk in sources and pk not in barred]


def take_change(fork: Path, actor: User, origin: Origin, kind: Kind, source_id: int) -> str:
    """Apply one upstream change to the fork and its snapshot; what was done, in words.
    A change no longer pending (taken by another editor) is a clear error."""
    with transaction.atomic():
        fork = locked(fork)
        now = list(origin.source_ids)
        if (kind, source_id) not in changed_ids(list(fork.origin_snapshot or []), now):
            raise ValidationError("That change has already been taken, or is no longer upstream.")
        source = Source.all_objects.filter(pk=source_id).first()
        if source is None or refusal(fork, source, actor):
            raise ValidationError("That change has already been taken, or is no longer upstream.")
        done = _apply(fork, actor, now, kind, source)
        fork.origin_snapshot = _snapshot_after(
            list(fork.origin_snapshot or []), now, kind, source_id
        )
        fork.save(update_fields=["origin_snapshot"])
        record(fork, actor, ChangeAction.TOOK_UPSTREAM, done, source)
    return done


def take_all(fork: Path, actor: User, origin: Origin) -> int:
    """Every pending change, removals first; then the snapshot is the origin's order."""
    with transaction.atomic():
        fork = locked(fork)
        now = list(origin.source_ids)
        changes = changed_ids(list(fork.origin_snapshot or []), now)
        changes.sort(key=lambda change: (change[0] != "removed", _place(now, change[1])))
        # A team-only source the fork may not hold is passed over, as it was at the fork.
        barred = not_placeable(fork, [pk for _, pk in changes])
        changes = [change for change in changes if change[1] not in barred]
        sources = Source.all_objects.in_bulk([pk for _, pk in changes])
        for kind, source_id in changes:
            if source_id in sources:
                _apply(fork, actor, now, kind, sources[source_id])
        fork.origin_snapshot = now
        fork.save(update_fields=["origin_snapshot"])
        if changes:
            record(
                fork,
                actor,
                ChangeAction.TOOK_UPSTREAM,
                f"Took {len(changes)} changes from its origin",
            )
    return len(changes)


def _place(order: list[int], pk: int) -> int:
    return order.index(pk) if pk in order else -1


def _apply(fork: Path, actor: User, now: list[int], kind: Kind, source: Source) -> str:
    step = fork.steps.filter(source=source).first()
    if kind == "removed":
        if step is not None:
            step.delete()
            renumber(fork)
        return f"Took from its origin: removed “{source.title}”"
    if step is None:
        if kind == "moved":
            return f"Took from its origin: “{source.title}” is no longer on this path"
        try:
            step = add_step(fork, actor, source, log=False)
        except ValidationError as error:
            message = f"“{source.title}” could not be added: {error.messages[0]}"
            raise ValidationError(message) from error
    _put_after_predecessor(fork, step, now)
    verb = "added" if kind == "added" else "moved"
    return f"Took from its origin: {verb} “{source.title}”"


def _put_after_predecessor(fork: Path, step: PathStep, now: list[int]) -> None:
    """Move the step just after the nearest source before it in the origin that the fork has,
    into that source's section; at the very start when there is none."""
    steps = list(fork.steps.order_by("section__position", "section_id", "position", "pk"))
    steps = [s for s in steps if s.pk != step.pk]
    by_source = {s.source_id: index for index, s in enumerate(steps)}
    before = now[: _place(now, step.source_id)]
    anchor = next((by_source[pk] for pk in reversed(before) if pk in by_source), None)
    target = 0 if anchor is None else anchor + 1
    neighbour = steps[anchor] if anchor is not None else (steps[0] if steps else None)
    steps.insert(target, step)
    if neighbour is not None and neighbour.section_id != step.section_id:
        PathStep.objects.filter(pk=step.pk).update(section_id=neighbour.section_id)
    for position, row in enumerate(steps):
        if row.position != position or row.pk == step.pk:
            PathStep.objects.filter(pk=row.pk).update(position=position)


def _snapshot_after(snapshot: list[int], now: list[int], kind: Kind, source_id: int) -> list[int]:
    """The snapshot as if it had been taken with this one change of the origin's."""
    kept = [pk for pk in snapshot if pk != source_id]
    if kind == "removed":
        return kept
    before = now[: _place(now, source_id)]
    anchor = next((kept.index(pk) for pk in reversed(before) if pk in kept), None)
    kept.insert(0 if anchor is None else anchor + 1, source_id)
    return kept
