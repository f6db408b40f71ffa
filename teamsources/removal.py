"""Deleting a team's own source, with everything readers attached to it.

A team's source is the team's: the member who added it, or an owner, may take it back. Its
bookmarks, notes, threads (with their replies) and path steps go with it, and it leaves the
sessions that planned it, all in one transaction; the confirmation page counts them first.
Other apps protect their rows from a source's deletion (a published source is retired, never
deleted), so their rows are deleted here first, found through the source's relations rather
than by naming the apps: this app knows only the catalog and teams.
"""

from dataclasses import dataclass

from django.db import models, transaction
from django.db.models.fields.related import ForeignObjectRel

from catalog.models import Source

from .models import TeamSource
from .services import forget_file

# Rows that point at a source without belonging to it: they keep their place when it goes
# (Django sets their pointer to null), or are the team row itself and the search entry.
_LEFT_ALONE = (models.SET_NULL, models.DO_NOTHING)


@dataclass(frozen=True)
class Attached:
    label: str  # the model's plural name, as its app gives it
    count: int
    deleted: bool  # False: the source only leaves them (a session's reading)

    def __str__(self) -> str:
        verb = "deleted" if self.deleted else "left without it"
        return f"{self.count} {self.label}, {verb}"


def _relations() -> list[ForeignObjectRel]:
    found = []
    # Hidden ones too: a foreign key named "+" protects a source just as well.
    for relation in Source._meta.get_fields(include_hidden=True):
        if not isinstance(relation, ForeignObjectRel) or relation.one_to_one:
            continue
        model = relation.related_model
        # A many-to-many's own table goes with the source; it is counted by its model.
        if model in (Source, TeamSource) or isinstance(model, str) or model._meta.auto_created:
            continue
        if relation.many_to_many or relation.on_delete not in _LEFT_ALONE:
            found.append(relation)
    return found


def _rows(relation: ForeignObjectRel, source: Source) -> models.QuerySet[models.Model]:
    model = relation.related_model
    assert not isinstance(model, str)
    # The base manager: every reader's rows, private ones included, whoever asks.
    return model._base_manager.filter(**{relation.field.name: source})


def attached(row: TeamSource) -> list[Attached]:
    """What deleting the source takes with it, counted (only what there is)."""
    counts = []
    for relation in _relations():
        count = _rows(relation, row.source).count()
        if count:
            model = relation.related_model
            assert not isinstance(model, str)
            label = str(model._meta.verbose_name if count == 1 else model._meta.verbose_name_plural)
            counts.append(Attached(label, count, deleted=not relation.many_to_many))
    return counts


@transaction.atomic
def delete_team_source(row: TeamSource) -> None:
    """Delete the source, the team's row and every row protecting it; the file leaves storage
    once that is committed (a rollback keeps it, with the row naming it)."""
    source = Source.all_objects.select_for_update().get(pk=row.source_id)
    for relation in _relations():
        if relation.on_delete in (models.PROTECT, models.RESTRICT):
            # Deleted row by row through the ORM: each sends its signals, so the page cache
            # drops the pages that showed it, and whatever hangs on it (replies) goes too.
            _rows(relation, source).delete()
    stored = row.file.name or ""
    source.delete()
    if stored:
        transaction.on_commit(lambda: forget_file(stored))
