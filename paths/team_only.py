"""Team-only steps: a team's own (private) source on a path.

A private source may be a step only on a path of the team that keeps it, and only while that
path is seen by the team's members alone (visibility "team"). Then everyone who can open the
path may see the source, so the path page, its exports, its progress and its follows need no
rule of their own. The service layer asks these before anything is written: adding a step,
filling a path in one go (fork, import, draft), taking a fork's upstream change, and sharing a
path beyond its team. Which team keeps a private source is the catalog's to answer (the app
that keeps them registers it), so paths never names that app.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from django.db.models import Q, QuerySet

from catalog.models import Source
from catalog.querysets import private_audience, private_sources_of_team

from .models import ChangeAction, Path, PathChange, Visibility

if TYPE_CHECKING:
    from .querysets import Reader

PRIVATE = Source.Status.PRIVATE
# Said to whoever may not see a private source: the same words as for one that does not exist.
NOT_FOUND = "That source is not in the catalog."
# What a history line about a team-only source says once the path is seen beyond its team.
REDACTED = {
    ChangeAction.ADDED: "Added a team-only source",
    ChangeAction.REMOVED: "Removed a team-only source",
    ChangeAction.MOVED: "Moved a team-only source",
    ChangeAction.NOTED: "Noted a team-only source",
    ChangeAction.TOOK_UPSTREAM: "Took a change to a team-only source from its origin",
}


def keeps_inside_team(path: Path) -> bool:
    """Whether the path is seen by its team's members alone."""
    return path.team_id is not None and path.visibility == Visibility.TEAM


def refusal(path: Path, source: Source, actor: Reader | None = None) -> str | None:
    """Why `source` may not be a step on `path`, in words; None when it may. An actor who may
    not see the source hears that it does not exist."""
    if source.status != PRIVATE:
        return None
    if actor is not None and not may_see(actor, source):
        return NOT_FOUND
    if path.team_id not in (private_audience(source) or set()):
        return (
            f"“{source.title}” is a team-only source: it can be a step only on its own team's "
            "paths, never on a reader's own path or another team's."
        )
    if path.visibility != Visibility.TEAM:
        return (
            f"“{source.title}” is a team-only source: it can be a step only while the path is "
            f"seen by the team's members alone, and this one is {path.visibility}."
        )
    return None


def may_see(reader: Reader, source: Source) -> bool:
    return Source.all_objects.visible_to(reader).filter(pk=source.pk).exists()


def not_placeable(path: Path, source_ids: Iterable[int]) -> set[int]:
    """Of `source_ids`, the private sources `path` may not hold (one query, none when no id)."""
    ids = set(source_ids)
    if not ids:
        return set()
    private = Source.all_objects.filter(pk__in=ids, status=PRIVATE)
    if keeps_inside_team(path):
        assert path.team_id is not None
        private = private.exclude(private_sources_of_team(path.team_id))
    return set(private.values_list("pk", flat=True))


def step_pool(path: Path, reader: Reader) -> QuerySet[Source] | None:
    """What the path page's "Add a step" field looks among: published sources, and on a path
    seen by its team alone the team's own that the reader may see (None: the default)."""
    if not keeps_inside_team(path):
        return None
    assert path.team_id is not None
    own = Q(status=Source.Status.PUBLISHED) | private_sources_of_team(path.team_id)
    return Source.all_objects.visible_to(reader).filter(own)


def team_only_titles(path: Path) -> list[str]:
    """The titles of the path's team-only steps, in path order (one query)."""
    steps = path.steps.filter(source__status=PRIVATE).order_by("position", "pk")
    return list(steps.values_list("source__title", flat=True))


def sharing_refusal(path: Path, visibility: str) -> str | None:
    """Why `path` may not be seen with `visibility`; None when it may. A path holding team-only
    steps stays inside its team: unlisted or public would show them to anyone."""
    if visibility == Visibility.TEAM or visibility == path.visibility:
        return None
    titles = team_only_titles(path)
    if not titles:
        return None
    named = "; ".join(f"“{title}”" for title in titles[:5])
    more = f" and {len(titles) - 5} more" if len(titles) > 5 else ""
    steps = "step" if len(titles) == 1 else "steps"
    return (
        f"This path holds {len(titles)} team-only {steps} ({named}{more}): only the team's "
        "members may see them. Remove them first, or keep the path for the team."
    )


def history_for(path: Path) -> QuerySet[PathChange]:
    """The path's history, with what may name a team-only source (`shown_summary`)."""
    return PathChange.objects.filter(path=path).select_related("actor", "source")


def shown_summary(change: PathChange, path: Path) -> str:
    """A history line as the path's readers may read it: a team-only source's title only while
    the path is seen by its team alone (its readers are then the team's members)."""
    summary = change.summary or change.get_action_display()
    source: Any = change.source if change.source_id else None
    if source is not None and source.status == PRIVATE and not keeps_inside_team(path):
        return REDACTED.get(ChangeAction(change.action), change.get_action_display())
    return summary


def redact_history(path: Path) -> None:
    """Rewrite the history lines naming a team-only source (the path is leaving its team): the
    words stay generic even if the source is later deleted and the line loses its link."""
    changes = PathChange.objects.filter(path=path, source__status=PRIVATE)
    for action, summary in REDACTED.items():
        changes.filter(action=action).update(summary=summary)
