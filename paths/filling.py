"""A new path filled in one go: a draft saved, an import, a fork. The steps are written in a few
statements rather than one locked `add_step` each, so a fork of 500 steps costs what one of 5
does; the rules are add_step's (each source once, at most MAX_STEPS)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from django.db import transaction

from readinglist.markdown import render_markdown

from .models import MAX_SECTIONS, MAX_STEPS, PathSection, PathStep
from .services import locked
from .team_only import not_placeable

if TYPE_CHECKING:
    from accounts.models import User

    from .models import Path


@dataclass
class PlannedSection:
    title: str
    # (source id, the author's note) in order.
    steps: list[tuple[int, str]] = field(default_factory=list)


@dataclass(frozen=True)
class Filled:
    added: int
    # Sources left out because the path was full.
    left_out: int
    # Sources already on the path (or twice in what was given), kept once.
    repeated: int
    # Team-only sources the path may not hold (paths.team_only), left out.
    team_only: int = 0


def fill_path(path: Path, actor: User | None, plan: list[PlannedSection]) -> Filled:
    """Append the planned sections and their steps after the path's own, in order. A section
    with no step left to add is not created; a section beyond MAX_SECTIONS joins the last one."""
    with transaction.atomic():
        path = locked(path)
        barred = not_placeable(path, (pk for planned in plan for pk, _ in planned.steps))
        plan = [
            PlannedSection(s.title, [step for step in s.steps if step[0] not in barred])
            for s in plan
        ]
        on_path = set(path.steps.values_list("source_id", flat=True))
        room = MAX_STEPS - len(on_path)
        section_count = path.sections.count()
        top_section = path.sections.order_by("-position").values_list("position", flat=True)
        next_section = (top_section.first() or 0) + 1 if section_count else 0
        position = path.steps.count()
        left_out = repeated = 0
        steps: list[PathStep] = []
        section: PathSection | None = path.sections.order_by("-position", "-pk").first()
        for planned in plan:
            kept = []
            for source_id, note in planned.steps:
                if source_id in on_path:
                    repeated += 1
                elif room <= 0:
                    left_out += 1
                else:
                    on_path.add(source_id)
                    kept.append((source_id, note))
                    room -= 1
            if not kept:
                continue
            if section is None or section_count < MAX_SECTIONS:
                section = PathSection.objects.create(
                    path=path, title=planned.title[:200], position=next_section
                )
                next_section += 1
                section_count += 1
            for source_id, note in kept:
                steps.append(
                    PathStep(
                        path=path,
                        section=section,
                        source_id=source_id,
                        note=note,
                        note_html=render_markdown(note),
                        added_by=actor,
                        position=position,
                    )
                )
                position += 1
        PathStep.objects.bulk_create(steps)
    return Filled(len(steps), left_out, repeated, len(barred))


def left_out_message(filled: Filled) -> str:
    """What did not make it onto the path, in words; empty when everything did."""
    parts = []
    if filled.left_out:
        parts.append(
            f"{filled.left_out:,} step{'s' if filled.left_out != 1 else ''} were left out: a "
            f"path holds at most {MAX_STEPS} steps"
        )
    if filled.team_only:
        parts.append(team_only_message(filled.team_only))
    if filled.repeated:
        parts.append(
            f"{filled.repeated:,} source{'s' if filled.repeated != 1 else ''} already on the "
            "path were kept once"
        )
    return "; ".join(parts) + "." if parts else ""


def team_only_message(count: int) -> str:
    return (
        f"{count:,} team-only step{'s were' if count != 1 else ' was'} left out: only a path "
        "of their team seen by its members alone may hold them"
    )
