"""A database and a backup as an older release had them, made by this code.

`make_backup(release, output)` brings the (empty) database to one of the released schemas
(operations/data/released_schemas.json), puts rows in every model that schema has, through its
historical models, and writes them with that schema's stamp, as that release's `backup` would
have. `row_counts()` counts every model's rows, for comparing before and after a restore. Both
run in a `manage.py shell` of their own (tests/operations/test_restore_across_releases.py), since
they move a whole database between schemas.
"""

import datetime
import itertools
import json
import tempfile
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.apps import apps as current_apps
from django.apps.registry import Apps
from django.core import serializers
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, models
from django.db.migrations.loader import MigrationLoader
from django.utils import timezone

from operations.backup_file import write_backup
from operations.backup_schema import applied_migrations, migrate_to, released_schemas
from operations.backups import EXCLUDED

NATURAL_KEY_OF: dict[str, Callable[[Any], tuple[Any, ...]]] = {
    "contenttypes.contenttype": lambda row: (row.app_label, row.model),
    "auth.permission": lambda row: (
        row.codename,
        row.content_type.app_label,
        row.content_type.model,
    ),
    "auth.group": lambda row: (row.name,),
    "sites.site": lambda row: (row.domain,),
    "accounts.user": lambda row: (row.email,),
}
# Written first, as dumpdata orders them: other rows refer to them by natural key.
FIRST = ["auth.group", "sites.site", "accounts.user"]
_counter = itertools.count(1)


def make_backup(release: int, output: str) -> dict[str, int]:
    """The backup of a database at released schema number `release`; its rows per model."""
    state = migrate_to(released_schemas(MigrationLoader(connection))[release])
    historical = state.apps
    for model in _backed_up_models(historical):
        if not model._base_manager.exists():
            _make(model)
    for label, natural_key in NATURAL_KEY_OF.items():
        historical.get_model(label).natural_key = natural_key
    ordered = sorted(
        _backed_up_models(historical),
        key=lambda model: (model._meta.label_lower not in FIRST, model._meta.label_lower),
    )
    rows = [
        row
        for model in ordered
        for row in serializers.serialize(
            "python", model._base_manager.order_by("pk"), use_natural_foreign_keys=True
        )
    ]
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as rows_file:
        json.dump(rows, rows_file, cls=DjangoJSONEncoder)
    write_backup(
        output,
        rows_file=rows_file.name,
        migrations=applied_migrations(),
        version="an older release",
        created=timezone.now().isoformat(),
    )
    Path(rows_file.name).unlink()
    return {model._meta.label_lower: model._base_manager.count() for model in ordered}


def row_counts() -> dict[str, int]:
    return {
        model._meta.label_lower: model._base_manager.count()
        for model in _backed_up_models(current_apps)
    }


def _backed_up_models(registry: Apps) -> list[type[models.Model]]:
    excluded = {label.lower() for label in EXCLUDED}
    return [
        model
        for model in registry.get_models()
        if model._meta.managed
        and not model._meta.proxy
        and model._meta.app_label not in excluded
        and model._meta.label_lower not in excluded
    ]


def _make(model: type[models.Model], depth: int = 0) -> models.Model:
    """A row with every required field set: a value of the field's kind, the first choice, and
    an existing (or new) row for a required foreign key. Optional ones stay empty, so a row
    never breaks a constraint that ties two fields together."""
    n = next(_counter)
    values: dict[str, Any] = {}
    for field in model._meta.concrete_fields:
        if field.primary_key or field.null or field.has_default():
            continue
        if field.is_relation:
            related = field.related_model
            assert isinstance(related, type)
            # Two keys to one model (a source and its neighbour) point at two rows.
            taken = [row.pk for row in values.values() if isinstance(row, related)]
            existing = related._base_manager.exclude(pk__in=taken).first()
            values[field.name] = existing or _make(related, depth + 1)
        elif not getattr(field, "auto_now", False) and not getattr(field, "auto_now_add", False):
            values[field.name] = _value(field, n)
    row = model(**values)
    row.save()
    return row


def _value(field: models.Field[Any, Any], n: int) -> Any:
    if field.choices:
        return next(iter(field.flatchoices))[0]
    kinds: list[tuple[type[models.Field[Any, Any]], Callable[[], Any]]] = [
        (models.EmailField, lambda: f"person{n}@example.com"),
        (models.URLField, lambda: f"https://example.com/{n}"),
        (models.SlugField, lambda: f"slug-{n}"),
        (models.CharField, lambda: f"{field.name} {n}"[: field.max_length or 100]),
        (models.TextField, lambda: f"{field.name} {n}"),
        (models.BooleanField, lambda: False),
        (models.DateTimeField, timezone.now),
        (models.DateField, datetime.date.today),
        (models.DurationField, lambda: datetime.timedelta(hours=1)),
        (models.JSONField, dict),
        (models.UUIDField, uuid.uuid4),
        (models.GenericIPAddressField, lambda: "127.0.0.1"),
        (models.BinaryField, lambda: b"x"),
    ]
    for kind, make in kinds:
        if isinstance(field, kind):
            return make()
    return n
