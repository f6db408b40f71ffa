"""The path page's own edits beyond adding and moving steps: details, editors, notes and
sections. Like paths.services, each locks the path's row and writes one line of history."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max

from .models import ChangeAction, Path, PathSection, PathStep
from .services import locked, record, renumber
from .team_only import redact_history, sharing_refusal

if TYPE_CHECKING:
    from accounts.models import User


def update_details(
    path: Path, actor: User, *, title: str, description: str, visibility: str
) -> list[str]:
    """Rename, describe and share in one save; one line of history for each that changed. A
    path holding team-only steps stays inside its team (a ValidationError says which steps);
    a path leaving its team has its history's words about team-only sources made generic."""
    with transaction.atomic():
        current = locked(path)
        if reason := sharing_refusal(current, visibility):
            raise ValidationError(reason)
        if current.visibility == Path.Visibility.TEAM and visibility != current.visibility:
            redact_history(current)
        changed: list[tuple[str, str]] = []
        if current.title != title:
            changed.append((ChangeAction.RENAMED, f"Renamed “{current.title}” to “{title}”"))
        if current.description != description:
            changed.append((ChangeAction.DESCRIBED, "Changed the description"))
        if current.visibility != visibility:
            label = Path.Visibility(visibility).label.split(":")[0]
            changed.append((ChangeAction.VISIBILITY, f"Made it {label.lower()}"))
        if not changed:
            return []
        current.title, current.description, current.visibility = title, description, visibility
        current.save(update_fields=["title", "description", "visibility"])
        for action, summary in changed:
            record(current, actor, action, summary)
    return [action for action, _ in changed]


def set_editors(path: Path, actor: User, editors: Iterable[User]) -> bool:
    with transaction.atomic():
        current = locked(path)
        wanted = {user.pk: user for user in editors}
        before = set(current.editors.values_list("pk", flat=True))
        if before == set(wanted):
            return False
        current.editors.set(wanted.values())
        names = ", ".join(sorted(str(user) for user in wanted.values())) or "owners only"
        record(current, actor, ChangeAction.EDITORS, f"Editors: {names}")
    return True


def set_note(path: Path, actor: User, step_id: int, note: str) -> PathStep | None:
    with transaction.atomic():
        current = locked(path)
        step = current.steps.select_related("source").filter(pk=step_id).first()
        if step is None or step.note == note:
            return step
        step.note = note
        step.save(update_fields=["note"])
        record(current, actor, ChangeAction.NOTED, f"Noted “{step.source.title}”", step.source)
    return step


def move_to_section(path: Path, actor: User, step_id: int, section_id: int) -> bool:
    """Put the step at the end of another section (an empty one included)."""
    with transaction.atomic():
        current = locked(path)
        step = current.steps.select_related("source").filter(pk=step_id).first()
        section = current.sections.filter(pk=section_id).first()
        if step is None or section is None:
            raise ValidationError("That step or section is no longer on this path.")
        if step.section_id == section.pk:
            return False
        # Past every other step: renumbering in section order puts it at its section's end.
        top = current.steps.aggregate(top=Max("position"))["top"] or 0
        PathStep.objects.filter(pk=step.pk).update(section=section, position=top + 1)
        renumber(current)
        record(
            current,
            actor,
            ChangeAction.MOVED,
            f"Moved “{step.source.title}” to the section “{section}”",
            step.source,
        )
    return True


def rename_section(path: Path, actor: User, section_id: int, title: str) -> None:
    with transaction.atomic():
        current = locked(path)
        section = current.sections.filter(pk=section_id).first()
        if section is None:
            raise ValidationError("That section is no longer on this path.")
        if section.title == title:
            return
        before = str(section)
        section.title = title
        section.save(update_fields=["title"])
        record(
            current, actor, ChangeAction.SECTION, f"Renamed the section “{before}” to “{section}”"
        )


def delete_section(path: Path, actor: User, section_id: int) -> int:
    """Delete a section; its steps join the section before it (or after it, for the first).
    The last section is kept: every step needs one. Returns how many steps moved."""
    with transaction.atomic():
        current = locked(path)
        sections = list(current.sections.order_by("position", "pk"))
        index = next((i for i, s in enumerate(sections) if s.pk == section_id), None)
        if index is None:
            return 0
        if len(sections) == 1:
            raise ValidationError("A path keeps at least one section.")
        gone = sections[index]
        heir = sections[index - 1] if index > 0 else sections[1]
        moved = PathStep.objects.filter(section=gone).update(section=heir)
        gone.delete()
        renumber(current)
        record(current, actor, ChangeAction.SECTION, f"Deleted the section “{gone}”")
    return moved


def delete_path(path: Path) -> None:
    with transaction.atomic():
        locked(path).delete()


def section_choices(path: Path) -> list[PathSection]:
    return list(path.sections.order_by("position", "pk"))
