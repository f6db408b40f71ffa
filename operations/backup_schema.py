"""Which schema a backup was made at, and bringing a database to it.

A stamped backup names its applied migrations. A backup made before backups carried a stamp is
matched against the schemas earlier code had (data/released_schemas.json, read from git history
once, in the order of how far their migrations had gone): one whose models hold exactly the
fields the backup's rows carry, else every one of them. Several releases share one schema (a
release that only moved data, added an index or a constraint), and the rows cannot tell which
made them; the earliest is chosen, so every data migration after it runs on the restored rows,
as an upgrade from that release runs it, rather than on an empty table before they arrive. A
data migration that comes with a change of fields (a field's values turned into rows, then the
field removed) is never run twice: the field tells which side of it the backup was made on.
"""

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.apps import apps as django_apps
from django.conf import settings
from django.core.management.sql import emit_post_migrate_signal
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.recorder import MigrationRecorder
from django.db.migrations.state import ModelState, ProjectState

from .backup_file import BackupContents

RELEASED_SCHEMAS = Path(__file__).resolve().parent / "data" / "released_schemas.json"
Node = tuple[str, str]


class SchemaMismatch(Exception):
    """The backup's schema is not one this code can bring a database to; says why."""


@dataclass(frozen=True)
class Target:
    # Every app of the code: the migration to stop at, or None for an app the backup predates.
    nodes: dict[str, str | None]
    description: str

    def leaf_nodes(self) -> list[Node]:
        return [(app, name) for app, name in sorted(self.nodes.items()) if name is not None]


def applied_migrations(using: str = DEFAULT_DB_ALIAS) -> dict[str, list[str]]:
    """Every applied migration, by app: the stamp a backup records."""
    applied: dict[str, list[str]] = {}
    for app, name in sorted(MigrationRecorder(connections[using]).applied_migrations()):
        applied.setdefault(app, []).append(name)
    return applied


def target_for(contents: BackupContents, loader: MigrationLoader) -> Target:
    if contents.migrations is None:
        return _released_schema_for(contents.objects, loader)
    return _stamped_target(contents, loader)


def _stamped_target(contents: BackupContents, loader: MigrationLoader) -> Target:
    assert contents.migrations is not None
    known = set(loader.graph.nodes)
    unknown = sorted(
        f"{app}.{name}"
        for app, names in contents.migrations.items()
        for name in names
        if (app, name) not in known and (app, name) not in loader.replacements
    )
    if unknown:
        shown = ", ".join(unknown[:5]) + (
            f" and {len(unknown) - 5} more" if len(unknown) > 5 else ""
        )
        raise SchemaMismatch(
            f"This backup was made by a newer release ({contents.version or 'unknown version'}) "
            f"than this code: it records migrations this code does not have ({shown}). Restore it "
            "with that release or a newer one. Nothing was changed."
        )
    nodes: dict[str, str | None] = {app: None for app in _apps_with_migrations(loader)}
    for app, names in contents.migrations.items():
        in_app = [(app, name) for name in names if (app, name) in known]
        nodes[app] = _newest(loader, in_app)
    version = f"release {contents.version}" if contents.version else "an unknown release"
    return Target(nodes=nodes, description=f"the schema it records ({version})")


def _newest(loader: MigrationLoader, nodes: list[Node]) -> str | None:
    """The one node of an app's applied set that every other one precedes."""
    for node in nodes:
        if set(nodes) <= set(loader.graph.forwards_plan(node)):
            return node[1]
    return nodes[-1][1] if nodes else None


def _apps_with_migrations(loader: MigrationLoader) -> set[str]:
    return {app for app, _name in loader.graph.nodes}


def _released_schema_for(objects: list[dict[str, Any]], loader: MigrationLoader) -> Target:
    carried = fields_carried(objects)
    schemas = released_schemas(loader)
    for exact in (True, False):
        matches = [
            index
            for index, schema in enumerate(schemas)
            if _holds(_state(loader, schema.nodes), carried, exact=exact)
        ]
        if matches:
            return schemas[matches[0]]
    newest = schemas[-1]
    raise SchemaMismatch(
        "This backup carries no stamp, and no schema of an earlier release holds the fields its "
        f"rows carry ({_first_missing(_state(loader, newest.nodes), carried)}, compared with "
        f"{newest.description}). Nothing was changed."
    )


def fields_carried(objects: Iterable[dict[str, Any]]) -> dict[str, set[str]]:
    """The fields each model's rows carry in a backup (every row of a model carries them all)."""
    carried: dict[str, set[str]] = {}
    for row in objects:
        carried.setdefault(row["model"].lower(), set()).update(row["fields"])
    return carried


def released_schemas(loader: MigrationLoader) -> list[Target]:
    """Oldest first: the schema of each release before backups had a stamp, as targets for
    every app the code has (a dependency's migrations as they are today)."""
    every_app = _apps_with_migrations(loader)
    project_apps = {app for app in every_app if _is_project_app(loader, app)}
    schemas = []
    for release in json.loads(RELEASED_SCHEMAS.read_text())["schemas"]:
        nodes: dict[str, str | None] = {app: _leaf(loader, app) for app in every_app - project_apps}
        nodes |= {app: release["migrations"].get(app) for app in project_apps}
        if all((app, name) in loader.graph.nodes for app, name in nodes.items() if name):
            description = f"the schema of the release of {release['date']} ({release['since']})"
            schemas.append(Target(nodes=nodes, description=description))
    return schemas


def _is_project_app(loader: MigrationLoader, app: str) -> bool:
    """One of ours (its code lives in this project), not a dependency's: only ours changed
    between releases; a dependency's migrations are taken as they are today."""
    path = Path(django_apps.get_app_config(app).path)
    # A virtualenv may sit inside the project folder.
    return path.is_relative_to(settings.BASE_DIR) and "site-packages" not in path.parts


def _leaf(loader: MigrationLoader, app: str) -> str | None:
    leaves = loader.graph.leaf_nodes(app)
    return leaves[0][1] if leaves else None


def _state(loader: MigrationLoader, nodes: dict[str, str | None]) -> ProjectState:
    leaves = [(app, name) for app, name in nodes.items() if name is not None]
    return loader.project_state(leaves, at_end=True)


def _serialized_fields(model: ModelState) -> set[str]:
    """The fields Django's serializer writes for a model: not the primary key, not an m2m with
    a through model of its own (its rows are written separately)."""
    return {
        name
        for name, field in model.fields.items()
        # django-stubs leave out Field.serialize and the m2m relation's `through`.
        if getattr(field, "serialize", True)
        and not getattr(field, "generated", False)
        and not (field.many_to_many and getattr(field.remote_field, "through", None) is not None)
    }


def _holds(state: ProjectState, carried: dict[str, set[str]], *, exact: bool) -> bool:
    for label, fields in carried.items():
        app, _, model_name = label.partition(".")
        model = state.models.get((app, model_name))
        if model is None:
            return False
        held = _serialized_fields(model)
        if not fields <= held or (exact and fields != held):
            return False
    return True


def _first_missing(state: ProjectState, carried: dict[str, set[str]]) -> str:
    for label, fields in sorted(carried.items()):
        app, _, model_name = label.partition(".")
        model = state.models.get((app, model_name))
        if model is None:
            return f"the model {label}"
        missing = sorted(fields - _serialized_fields(model))
        if missing:
            return f"{label}.{missing[0]}"
    return "every field is held"


def moves_schema(target: Target, using: str = DEFAULT_DB_ALIAS) -> bool:
    """Whether bringing the database to `target` applies or unapplies any migration."""
    return bool(MigrationExecutor(connections[using]).migration_plan(sorted(target.nodes.items())))


def migrate_to(target: Target, using: str = DEFAULT_DB_ALIAS) -> ProjectState:
    """Apply or unapply migrations until the database is at `target`; its models' state.

    Django plans either forwards or backwards, not both, so a database is first brought fully
    forward by the caller, or is empty of migrations; from there the way is one direction.
    """
    connection = connections[using]
    executor = MigrationExecutor(connection)
    targets: list[tuple[str, str | None]] = sorted(target.nodes.items())
    plan = executor.migration_plan(targets)
    if plan:
        executor.migrate(targets, plan=plan)
    state = executor.loader.project_state(target.leaf_nodes(), at_end=True)
    # What `migrate` does after it moves: content types and permissions of this schema's models
    # (rows refer to them by natural key), the site record, the cache tables.
    emit_post_migrate_signal(0, False, using, apps=state.apps, plan=plan)
    return state
