"""Load a backup's rows into a database at the schema they were written at.

The rows go in through the historical models of that schema (the ones migrations use), with
Django's own deserializer, so a backup made by an older release loads into the tables it was
made from; the migrations after it then carry the rows forward, data migrations included.

Historical models keep no methods, so the natural keys that rows use to refer to one another
(a user by email, a group by name, the site by domain; content types and permissions, which
migrate creates, by theirs) are resolved here, from one table that a test holds equal to every
natural key the code defines.
"""

from collections.abc import Iterator
from typing import Any

from django.apps.registry import Apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ObjectDoesNotExist
from django.core.management.color import no_style
from django.core.serializers import base
from django.core.serializers.python import Deserializer
from django.db import DEFAULT_DB_ALIAS, connections, models, transaction


def natural_keys() -> dict[str, tuple[str, ...]]:
    """Each model's natural key as lookups, in the order `natural_key()` returns them."""
    return {
        "contenttypes.contenttype": ("app_label", "model"),
        "auth.permission": ("codename", "content_type__app_label", "content_type__model"),
        "auth.group": ("name",),
        "sites.site": ("domain",),
        settings.AUTH_USER_MODEL.lower(): (get_user_model().USERNAME_FIELD,),
    }


class HistoricalDeserializer(Deserializer):
    """Django's deserializer, looking models up in a migration state rather than the app
    registry, and natural keys up in the table above rather than in the models' managers."""

    def __init__(self, object_list: list[dict[str, Any]], *, models_of: Apps, **options: Any):
        super().__init__(object_list, **options)
        self.models_of = models_of
        self.alias: str = options.get("using", DEFAULT_DB_ALIAS)
        self.natural_keys = natural_keys()

    def _get_model_from_node(self, model_identifier: str) -> type[models.Model]:
        try:
            return self.models_of.get_model(model_identifier)
        except (LookupError, TypeError) as error:
            raise base.DeserializationError(
                f"The backup has rows of {model_identifier}, which this schema does not have."
            ) from error

    def _handle_fk_field_node(self, field: Any, field_value: Any) -> Any:
        if isinstance(field_value, list):
            return self.find(field.remote_field.model, field_value, field.remote_field.field_name)
        # django-stubs leave out the deserializer's node handlers.
        return super()._handle_fk_field_node(field, field_value)  # type: ignore[misc]

    def _handle_m2m_field_node(self, field: Any, field_value: Any) -> list[Any]:
        model = field.remote_field.model
        return [
            self.find(model, value, "pk")
            if isinstance(value, list)
            else model._meta.pk.to_python(value)
            for value in field_value
        ]

    def find(self, model: type[models.Model], key: list[Any], attribute: str) -> Any:
        lookups = self.natural_keys.get(model._meta.label_lower)
        if lookups is None or len(lookups) != len(key):
            raise base.DeserializationError(
                f"A row refers to {model._meta.label} by {key!r}, a key it does not have."
            )
        try:
            return (
                model._base_manager.using(self.alias)
                .values_list(attribute, flat=True)
                .get(**dict(zip(lookups, key, strict=True)))
            )
        except ObjectDoesNotExist as error:
            raise base.DeserializationError(
                f"A row refers to {model._meta.label} {key!r}, which is neither in the backup "
                "before it nor made by migrate."
            ) from error


def load_rows(
    objects: list[dict[str, Any]], state_apps: Apps, using: str = DEFAULT_DB_ALIAS
) -> int:
    """Insert every row in one transaction; the number of rows loaded."""
    connection = connections[using]
    loaded: set[type[models.Model]] = set()
    deferred = []
    with transaction.atomic(using=using), connection.constraint_checks_disabled():
        rows = list(_in_place(objects, state_apps, using))
        for item in HistoricalDeserializer(
            rows, models_of=state_apps, using=using, handle_forward_references=True
        ):
            item.save(using=using)
            loaded.add(type(item.object))
            if item.deferred_fields:
                deferred.append(item)
        for item in deferred:
            item.save_deferred_fields(using=using)
        connection.check_constraints(table_names=[model._meta.db_table for model in loaded])
        _reset_sequences(connection, loaded)
    return len(objects)


def _in_place(
    objects: list[dict[str, Any]], state_apps: Apps, using: str
) -> Iterator[dict[str, Any]]:
    """Rows that migrate already made (the Maintainers group, the site record) update that row
    rather than add a second: a row without a primary key takes the one its natural key finds,
    and the deployment's own site record (SITE_ID) is the one a backup's single site row
    describes, whatever its domain."""
    keys = natural_keys()
    single_site = sum(row["model"] == "sites.site" for row in objects) == 1
    for row in objects:
        lookups = keys.get(row["model"])
        if "pk" in row or lookups is None or "__" in "".join(lookups):
            yield row
            continue
        model = state_apps.get_model(row["model"])
        existing = (
            model._base_manager.using(using)
            .filter(**{lookup: row["fields"].get(lookup) for lookup in lookups})
            .values_list("pk", flat=True)
            .first()
        )
        if existing is None and single_site and row["model"] == "sites.site":
            existing = settings.SITE_ID
        yield row if existing is None else {**row, "pk": existing}


def _reset_sequences(connection: Any, loaded: set[type[models.Model]]) -> None:
    statements = connection.ops.sequence_reset_sql(no_style(), list(loaded))
    if statements:
        with connection.cursor() as cursor:
            for statement in statements:
                cursor.execute(statement)
