"""A check constraint that lists a field's allowed values must list exactly its choices.

The constraints are built from the choices classes, so this fails only when someone writes the
values out by hand again, or narrows or widens a constraint without changing the choices.
"""

from collections.abc import Iterator
from typing import Any

from django.apps import apps
from django.db.models import CheckConstraint, Field, Model, Q


def in_lookups(condition: Q) -> Iterator[tuple[str, list[Any]]]:
    """Every (field name, values) an `__in` inside the condition names, however deeply nested."""
    for child in condition.children:
        if isinstance(child, Q):
            yield from in_lookups(child)
        elif isinstance(child, tuple) and child[0].endswith("__in"):
            yield child[0].removesuffix("__in"), list(child[1])


def choice_constraints() -> Iterator[tuple[type[Model], str, Field, list[Any]]]:
    for model in apps.get_models():
        for constraint in model._meta.constraints:
            if isinstance(constraint, CheckConstraint) and isinstance(constraint.condition, Q):
                for field_name, values in in_lookups(constraint.condition):
                    field = model._meta.get_field(field_name)
                    assert isinstance(field, Field), f"{constraint.name} names a relation"
                    yield model, constraint.name, field, values


def test_every_in_constraint_lists_its_fields_choices_in_order() -> None:
    found = list(choice_constraints())
    # The catalog, library, notes, teams, proposals and candidates apps all have some.
    assert len(found) >= 15
    for model, name, field, values in found:
        expected = [value for value, _ in field.flatchoices]
        # A blank answer is a field's own allowed value, not one of its choices.
        if field.blank and "" in values:
            expected = ["", *expected]
        assert values == expected, f"{model.__name__}.{name} disagrees with {field.name}'s choices"
