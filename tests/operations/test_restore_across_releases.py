"""A backup made by an older release restores into this one with every row.

Two kinds of old backup: the file the release of 2026-12-02 (4bcb4cf) wrote before backups
carried a stamp (fixtures/, made by that release's own `manage.py backup` after a few rows were
put in every model it had; one of its teams still lists its email domains in the field that
release had), and backups this test makes at an older released schema, stamped as backups are
now (old_release.py). Each is restored by `manage.py restore` in a process of its own into a new
database, as an operator would, on SQLite and (when the run has it) PostgreSQL.
"""

import gzip
import json
import uuid
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from django.apps import apps
from django.core.management import CommandError, call_command
from django.db import connection
from django.db.migrations.loader import MigrationLoader

from accounts.models import User
from operations.backup_file import read_backup
from operations.backup_schema import SchemaMismatch, released_schemas, target_for
from operations.historical_rows import natural_keys
from tests.production.test_security import run_python

pytestmark = pytest.mark.slow

LEGACY = Path(__file__).parent / "fixtures" / "release-2026-12-02-4bcb4cf.json.gz"


@pytest.fixture(params=["sqlite", "postgresql"])
def new_database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The address of a database nothing has touched yet."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'new.sqlite3'}"
        return
    if connection.vendor != "postgresql":
        pytest.skip("this run has no PostgreSQL")
    name = f"restore_{uuid.uuid4().hex[:12]}"
    server = {**connection.get_connection_params(), "dbname": "postgres", "autocommit": True}
    server.pop("cursor_factory", None)
    with psycopg.connect(**server) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    settings = connection.settings_dict
    yield f"postgres://{settings['USER']}@{settings['HOST']}:{settings['PORT'] or 5432}/{name}"
    with psycopg.connect(**server) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def manage(database_url: str, *args: str) -> str:
    result = run_python(["manage.py", *args], DEBUG="true", DATABASE_URL=database_url)
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout


def shell(database_url: str, code: str) -> dict[str, int]:
    output = manage(database_url, "shell", "-v", "0", "-c", code)
    return json.loads(output.strip().splitlines()[-1])


COUNTS = (
    "import json; from tests.operations.old_release import row_counts; "
    "print(json.dumps(row_counts()))"
)


def rows_in(path: Path) -> Counter[str]:
    with gzip.open(path, "rt") as stream:
        document = json.load(stream)
    rows = document if isinstance(document, list) else document["objects"]
    return Counter(row["model"] for row in rows)


def test_a_backup_made_before_backups_had_a_stamp_restores_with_every_row(
    new_database: str,
) -> None:
    output = manage(new_database, "restore", str(LEGACY))
    assert "Loaded at the schema of the release of 2026-12-0" in output
    after = shell(new_database, COUNTS)
    assert {label: after[label] for label in rows_in(LEGACY)} == rows_in(LEGACY)
    # Its team's listed email domains went through that release's data migration: each is now a
    # domain of the team, proved where an owner holds a verified address there.
    domains = shell(
        new_database,
        "import json; from teams.models import TeamDomain; print(json.dumps({d.domain: "
        "bool(d.verified_at) for d in TeamDomain.objects.all()}))",
    )
    assert domains == {"example.com": True, "kernels.example": False}
    # Readers sign in as before, and the maintainers' group kept its rights and gained the new.
    signed_in = shell(
        new_database,
        "import json; from django.contrib.auth import authenticate; "
        "from accounts.models import User; "
        "u = authenticate(email='reader@example.com', password='correct horse battery'); "
        "print(json.dumps({'reader': u is not None, 'maintainer_perms': "
        "User.objects.get(email='reader@example.com').has_perm('teams.view_teamdomain')}))",
    )
    assert signed_in == {"reader": True, "maintainer_perms": True}


def test_a_stamped_backup_from_an_older_schema_restores_with_every_row(
    new_database: str, tmp_path: Path
) -> None:
    """The rows are counted through today's models: the tables renamed for their apps since that
    schema (accounts_bookmark to library_bookmark, catalog_proposal to proposals_proposal...)
    hold every row the backup had."""
    old = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    backup = tmp_path / "old.json.gz"
    release = _release_before_the_team_domains_moved()
    before = shell(
        old,
        "import json; from tests.operations.old_release import make_backup; "
        f"print(json.dumps(make_backup({release}, {str(backup)!r})))",
    )
    assert before["teams.team"] and before["notes.note"] and before["library.bookmark"]
    migrations = read_backup(backup).migrations
    assert migrations is not None
    assert migrations["teams"][-1] == "0003_names_single_line"
    manage(new_database, "restore", str(backup))
    after = shell(new_database, COUNTS)
    assert {label: after[label] for label in before} == before


def _release_before_the_team_domains_moved() -> int:
    schemas = released_schemas(MigrationLoader(None, ignore_no_migrations=True))
    return max(i for i, s in enumerate(schemas) if s.nodes["teams"] == "0003_names_single_line")


def test_the_legacy_file_is_matched_to_the_earliest_schema_with_exactly_its_fields() -> None:
    target = target_for(read_backup(LEGACY), MigrationLoader(None, ignore_no_migrations=True))
    # Before the team's email domains became rows of their own, which the field still says.
    assert target.nodes["teams"] in {"0002_maintainer_permissions", "0003_names_single_line"}
    # Sources as they were: before identifiers had records of their own, and keywords.
    assert (target.nodes["catalog"] or "") < "0015_source_identifiers_full_records"
    assert target.nodes["candidates"] is None  # the inbox came later; it starts empty


def test_a_field_no_release_had_is_refused_by_name(tmp_path: Path) -> None:
    with gzip.open(LEGACY, "rt") as stream:
        rows = json.load(stream)
    rows[0]["fields"]["colour"] = "blue"
    odd = tmp_path / "odd.json.gz"
    with gzip.open(odd, "wt") as stream:
        json.dump(rows, stream)
    with pytest.raises(SchemaMismatch, match=rf"{rows[0]['model']}\.colour"):
        target_for(read_backup(odd), MigrationLoader(None, ignore_no_migrations=True))


def test_a_backup_from_a_newer_release_is_refused_and_changes_nothing(
    db: None, tmp_path: Path, reader: User
) -> None:
    newer = tmp_path / "newer.json.gz"
    call_command("backup", output=str(newer), verbosity=0)
    with gzip.open(newer, "rt") as stream:
        document = json.load(stream)
    document["version"] = "9.0.0"
    document["migrations"]["catalog"].append("0999_from_the_future")
    with gzip.open(newer, "wt") as stream:
        json.dump(document, stream)
    with pytest.raises(CommandError, match=r"newer release \(9\.0\.0\).*catalog\.0999_from_the"):
        call_command("restore", str(newer), force=True, verbosity=0)
    assert apps.get_model("accounts", "User").objects.filter(pk=reader.pk).exists()


def test_every_natural_key_the_code_defines_is_resolved_by_the_restore() -> None:
    defined = {
        model._meta.label_lower for model in apps.get_models() if hasattr(model, "natural_key")
    }
    assert defined <= set(natural_keys())
