"""Every change to a path goes through here: one transaction, the path's row locked so two
editors' changes apply one after the other, and one line of history per change."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max, QuerySet
from django.utils import timezone

from .models import MAX_SECTIONS, MAX_STEPS, ChangeAction, Path, PathChange, PathSection, PathStep
from .team_only import refusal

if TYPE_CHECKING:
    from accounts.models import User
    from catalog.models import Source
    from teams.models import Team


def record(
    path: Path, actor: User | None, action: str, summary: str = "", source: Source | None = None
) -> None:
    PathChange.objects.create(
        path=path, actor=actor, action=action, summary=summary[:400], source=source
    )
    Path.objects.filter(pk=path.pk).update(updated=timezone.now())


def locked(path: Path) -> Path:
    """The path's row, locked until the transaction ends (a no-op on SQLite, which writes one
    transaction at a time anyway)."""
    return Path.objects.select_for_update().get(pk=path.pk)


@transaction.atomic
def create_path(
    user: User,
    title: str,
    *,
    description: str = "",
    team: Team | None = None,
    visibility: str | None = None,
    section_titles: Iterable[str] = ("",),
) -> Path:
    path = Path.objects.create(
        title=title,
        description=description,
        user=user,
        team=team,
        visibility=visibility or ("team" if team else "private"),
    )
    for position, section_title in enumerate(section_titles):
        PathSection.objects.create(path=path, title=section_title, position=position)
    record(path, user, ChangeAction.CREATED, f"Created “{title}”")
    return path


def last_section(path: Path) -> PathSection:
    section = path.sections.order_by("-position", "-pk").first()
    if section is None:
        section = PathSection.objects.create(path=path, title="", position=0)
    return section


def add_section(path: Path, actor: User | None, title: str) -> PathSection:
    with transaction.atomic():
        path = locked(path)
        if path.sections.count() >= MAX_SECTIONS:
            raise ValidationError(f"A path holds at most {MAX_SECTIONS} sections.")
        top = path.sections.aggregate(top=Max("position"))["top"]
        section = PathSection.objects.create(
            path=path, title=title, position=0 if top is None else top + 1
        )
        record(path, actor, ChangeAction.SECTION, f"Added the section “{title or 'Untitled'}”")
    return section


def add_step(
    path: Path,
    actor: User | None,
    source: Source,
    *,
    section: PathSection | None = None,
    note: str = "",
    log: bool = True,
) -> PathStep:
    """Put `source` at the end of `section` (the last section by default). A source already on
    the path is a clear error rather than a second step; so is a team-only source the path may
    not hold (paths.team_only), checked against the path as it is under its lock."""
    with transaction.atomic():
        path = locked(path)
        if reason := refusal(path, source, actor):
            raise ValidationError(reason)
        if path.steps.filter(source=source).exists():
            raise ValidationError(f"“{source.title}” is already on this path.")
        if path.steps.count() >= MAX_STEPS:
            raise ValidationError(f"A path holds at most {MAX_STEPS} steps.")
        section = section or last_section(path)
        if section.path_id != path.pk:
            raise ValidationError("That section is not on this path.")
        step = PathStep(path=path, section=section, source=source, note=note, added_by=actor)
        step.position = _end_of_section(section)
        step.save()
        if log:
            record(path, actor, ChangeAction.ADDED, f"Added “{source.title}”", source)
    return step


def _end_of_section(section: PathSection) -> int:
    """The position just after the section's last step, making room in the steps that follow."""
    path = section.path
    later_sections = path.sections.filter(position__gt=section.position).values("pk")
    here = path.steps.filter(section=section).aggregate(top=Max("position"))["top"]
    if here is None:
        before = path.steps.filter(section__position__lt=section.position).aggregate(
            top=Max("position")
        )["top"]
        here = -1 if before is None else before
    position = here + 1
    _shift(path.steps.filter(section__in=later_sections, position__gte=position), 1)
    return position


def _shift(steps: QuerySet[PathStep], by: int) -> None:
    # One at a time from the far end, so no two steps ever share a position mid-way.
    ordered = steps.order_by("-position" if by > 0 else "position")
    for step in ordered:
        PathStep.objects.filter(pk=step.pk).update(position=step.position + by)


def renumber(path: Path) -> None:
    """Positions 0…n-1 in section order, then step order: after a move across sections."""
    steps = path.steps.order_by("section__position", "section_id", "position", "pk")
    for index, step in enumerate(steps.only("pk", "position")):
        if step.position != index:
            PathStep.objects.filter(pk=step.pk).update(position=index)


def remove_step(path: Path, actor: User | None, step_id: int) -> None:
    with transaction.atomic():
        path = locked(path)
        step = path.steps.select_related("source").filter(pk=step_id).first()
        if step is None:
            return  # already removed by another editor: the result they wanted
        step.delete()
        renumber(path)
        record(path, actor, ChangeAction.REMOVED, f"Removed “{step.source.title}”", step.source)


def move_step(path: Path, actor: User | None, step_id: int, offset: int) -> bool:
    """Move a step `offset` places along the path (negative is earlier), crossing into the
    neighbouring section at a section's edge. False when the step is gone or at an end."""
    return _move(path, actor, step_id, lambda index: index + offset)


def move_step_to(path: Path, actor: User | None, step_id: int, target: int) -> bool:
    """Move a step to place `target` (0-based) along the whole path."""
    return _move(path, actor, step_id, lambda index: target)


def _move(path: Path, actor: User | None, step_id: int, place: Callable[[int], int]) -> bool:
    """Move a step to `place(its index now)`, read from the path's order under its lock."""
    with transaction.atomic():
        path = locked(path)
        steps = list(path.steps.order_by("section__position", "section_id", "position", "pk"))
        index = next((i for i, s in enumerate(steps) if s.pk == step_id), None)
        if index is None:
            return False
        return _move_to(path, actor, steps, index, place(index))


def _move_to(
    path: Path, actor: User | None, steps: list[PathStep], index: int, target: int
) -> bool:
    target = max(0, min(target, len(steps) - 1))
    if target == index:
        return False
    step = steps.pop(index)
    # The step takes the section of the step it lands beside: after it going down, before it
    # going up, so a move past a section's edge crosses into the next section.
    neighbour = steps[target - 1] if target > index else steps[target]
    steps.insert(target, step)
    if neighbour is not None and neighbour.section_id != step.section_id:
        step.section_id = neighbour.section_id
        PathStep.objects.filter(pk=step.pk).update(section_id=neighbour.section_id)
    for position, row in enumerate(steps):
        if row.position != position:
            PathStep.objects.filter(pk=row.pk).update(position=position)
    title = step.source.title
    record(path, actor, ChangeAction.MOVED, f"Moved “{title}” to step {target + 1}", step.source)
    return True


def step_source_ids(path: Path) -> list[int]:
    """The path's sources in order: what a fork compares with its origin."""
    return list(
        path.steps.order_by("section__position", "section_id", "position", "pk").values_list(
            "source_id", flat=True
        )
    )
