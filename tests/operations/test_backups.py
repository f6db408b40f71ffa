"""Backups: the whole database goes out and comes back the same, on SQLite and PostgreSQL."""

import gzip
import json
import sqlite3
import stat
from contextlib import closing
from pathlib import Path
from subprocess import CompletedProcess

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from pytest_django import Settings

from accounts.models import User
from catalog.models import Source
from catalog.services import LoadReport
from library.models import Bookmark
from operations.backups import empty_database, non_empty_tables
from teams.services import create_team
from teamsources.models import TeamSource
from tests.hints import SmallCatalog
from tests.production.test_security import run_python

# Real processes and whole databases: minutes, so `make test-fast` leaves them out.
pytestmark = pytest.mark.slow


def row_counts() -> dict[str, int]:
    return {
        model._meta.label: model._base_manager.count()
        for model in apps.get_models()
        if model._meta.managed and not model._meta.proxy
    }


def dump(path: Path) -> list[dict[str, object]]:
    """The rows a backup holds (its stamp is checked where it matters)."""
    call_command("backup", output=str(path), verbosity=0)
    with gzip.open(path, "rt") as stream:
        return json.load(stream)["objects"]


@pytest.fixture
def populated(full_catalog: LoadReport, reader: User, maintainer: User) -> list[Source]:
    sources = list(Source.objects.order_by("pk")[:3])
    for status, source in zip(["to_read", "reading", "read"], sources, strict=True):
        Bookmark.objects.create(user=reader, source=source, status=status)
    reader.display_name = "Ada ✓ <b>not html</b>"
    reader.save()
    # A team's own source: private, so the default manager leaves it out; backups keep it.
    team = create_team(name="Inference", owner=reader)
    private = Source.all_objects.create(
        slug="design-notes-1a2b",
        title="Design notes",
        kind="documentation",
        tier=sources[0].tier,
        status=Source.Status.PRIVATE,
    )
    TeamSource.objects.create(source=private, team=team, added_by=reader, text="notes")
    return sources


def test_backup_and_restore_round_trip_is_lossless(
    populated: list[Source], tmp_path: Path, maintainer: User
) -> None:
    before_counts = row_counts()
    before = dump(tmp_path / "before.json.gz")
    assert {row["model"] for row in before} >= {"catalog.source", "accounts.user", "auth.group"}
    assert not any(
        row["model"] in {"contenttypes.contenttype", "sessions.session"} for row in before
    )

    # An empty, migrated database: flush keeps the schema and recreates what migrate makes.
    empty_database()
    assert non_empty_tables() == []
    call_command("restore", str(tmp_path / "before.json.gz"), verbosity=0)

    after = dump(tmp_path / "after.json.gz")
    assert after == before
    after_counts = row_counts()
    assert Source.all_objects.filter(status="private").count() == 1
    labels = ("catalog.Source", "accounts.User", "library.Bookmark", "auth.Group")
    for label in (*labels, "teamsources.TeamSource"):
        assert after_counts[label] == before_counts[label] > 0
    # A restored maintainer can still curate: the group and its permissions came back by name.
    # Users travel by natural key (their email), so look them up by it, not by the old id.
    maintainer = get_user_model().objects.get(email=maintainer.email)
    assert maintainer.has_perm("catalog.change_source")
    assert maintainer.check_password("correct horse battery staple")


def test_restore_refuses_a_database_that_holds_data(
    populated: list[Source], tmp_path: Path
) -> None:
    dump(tmp_path / "backup.json.gz")
    Source.objects.filter(pk=populated[0].pk).update(title="Edited after the backup")
    with pytest.raises(CommandError, match="not empty"):
        call_command("restore", str(tmp_path / "backup.json.gz"), verbosity=0)
    assert Source.objects.get(pk=populated[0].pk).title == "Edited after the backup"


def test_restore_with_force_replaces_everything(populated: list[Source], tmp_path: Path) -> None:
    backup = dump(tmp_path / "backup.json.gz")
    Source.objects.filter(pk=populated[0].pk).update(title="Edited after the backup")
    call_command("restore", str(tmp_path / "backup.json.gz"), force=True, verbosity=0)
    assert dump(tmp_path / "again.json.gz") == backup


def test_a_broken_backup_changes_nothing(populated: list[Source], tmp_path: Path) -> None:
    broken = tmp_path / "broken.json.gz"
    with gzip.open(broken, "wt") as stream:
        stream.write('[{"model": "catalog.source", "fields": {"title": "half a row"}}')
    before = row_counts()
    with pytest.raises(Exception):  # noqa: B017 - whatever the deserializer raises, nothing changes
        call_command("restore", str(broken), force=True, verbosity=0)
    assert row_counts() == before


def test_backups_are_readable_by_their_owner_only(
    small_catalog: SmallCatalog, reader: User, tmp_path: Path
) -> None:
    dump(tmp_path / "backup.json.gz")
    assert stat.S_IMODE((tmp_path / "backup.json.gz").stat().st_mode) == 0o600
    # A file already there keeps no looser mode either: the backup replaces it.
    earlier = tmp_path / "earlier.json.gz"
    earlier.write_text("")
    earlier.chmod(0o644)
    dump(earlier)
    assert stat.S_IMODE(earlier.stat().st_mode) == 0o600
    assert sorted(path.name for path in tmp_path.iterdir()) == ["backup.json.gz", "earlier.json.gz"]


def manage_on_fresh_sqlite(database_file: Path, *args: str) -> CompletedProcess[str]:
    """manage.py in its own process, on an SQLite file as a fresh clone's `make restore` uses."""
    return run_python(["manage.py", *args], DEBUG="true", DATABASE_URL=f"sqlite:///{database_file}")


def test_restore_into_an_unmigrated_database_migrates_it_first(
    small_catalog: SmallCatalog, reader: User, tmp_path: Path
) -> None:
    dump(tmp_path / "backup.json.gz")
    database_file = tmp_path / "fresh.sqlite3"
    result = manage_on_fresh_sqlite(database_file, "restore", str(tmp_path / "backup.json.gz"))
    assert result.returncode == 0, result.stderr
    assert "then migrated to this release" in result.stdout
    with closing(sqlite3.connect(database_file)) as restored:
        titles = {row[0] for row in restored.execute("SELECT title FROM catalog_source")}
    assert titles == set(Source.objects.values_list("title", flat=True))


@pytest.mark.parametrize("backup_text", [None, '[{"model": "catalog.source", "fie'])
def test_a_failed_restore_leaves_no_database_file_behind(
    tmp_path: Path, backup_text: str | None
) -> None:
    backup_file = tmp_path / "backup.json.gz"
    if backup_text is not None:
        with gzip.open(backup_file, "wt") as stream:
            stream.write(backup_text)
    database_file = tmp_path / "fresh.sqlite3"
    result = manage_on_fresh_sqlite(database_file, "restore", str(backup_file))
    assert result.returncode != 0
    if backup_text is None:
        assert "There is no backup file at" in result.stderr
        assert "Traceback" not in result.stderr
    assert not database_file.exists()


def test_a_backup_without_output_goes_to_backup_dir(
    small_catalog: SmallCatalog, tmp_path: Path, settings: Settings
) -> None:
    settings.BACKUP_DIR = str(tmp_path)
    call_command("backup", verbosity=0)
    (written,) = tmp_path.glob("readinglist-backup-*.json.gz")
    with gzip.open(written, "rt") as stream:
        assert "catalog" in json.load(stream)["migrations"]


def test_a_folder_it_cannot_write_to_is_a_one_line_error(
    small_catalog: SmallCatalog, tmp_path: Path, settings: Settings
) -> None:
    not_a_folder = tmp_path / "a-file"
    not_a_folder.write_text("")
    settings.BACKUP_DIR = str(not_a_folder)
    with pytest.raises(CommandError, match=r"Cannot write the backup to .*a-file.*BACKUP_DIR"):
        call_command("backup", verbosity=0)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file"]


def test_a_missing_backup_dir_is_named_in_the_error(
    small_catalog: SmallCatalog, tmp_path: Path, settings: Settings
) -> None:
    settings.BACKUP_DIR = str(tmp_path / "not-mounted")
    with pytest.raises(CommandError, match=r"Cannot write the backup to .*not-mounted.*No such"):
        call_command("backup", verbosity=0)
    assert list(tmp_path.iterdir()) == []
