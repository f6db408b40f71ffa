"""Release conventions: the site says which release it runs, the changelog lists it, and the
system checks warn about what the operator's room needs."""

import re
from pathlib import Path

import pytest
from django.core.checks import CheckMessage
from django.core.checks.registry import registry
from django.db import connection
from django.test import Client
from pytest_django import Settings

import readinglist
from operations import checks
from readinglist.local_server import BASE_DIR


def test_healthz_and_the_admin_footer_name_the_release(
    client: Client, admin_client: Client
) -> None:
    assert client.get("/healthz").json()["version"] == readinglist.__version__
    page = admin_client.get("/admin/").content.decode()
    assert f'<footer id="footer"><p class="help">readinglist {readinglist.__version__}' in page


def test_the_changelog_lists_this_release_with_upgrade_notes() -> None:
    text = (BASE_DIR / "CHANGELOG.md").read_text()
    releases = re.findall(r"^## \[([^\]]+)\](?: - (\d{4}-\d\d-\d\d))?$", text, re.M)
    assert releases[0] == ("Unreleased", "")
    assert (readinglist.__version__, "2026-12-07") in releases
    for section in re.split(r"^## ", text, flags=re.M)[1:]:
        assert "### Upgrade notes" in section, section.splitlines()[0]
    docs = (BASE_DIR / "docs" / "operations.md").read_text()
    assert "## Upgrading" in docs and "CHANGELOG.md" in docs


def ids(messages: list[CheckMessage]) -> list[str | None]:
    return [message.id for message in messages]


def test_a_missing_heartbeat_table_is_a_warning_only_when_a_database_is_checked(
    db: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert ids(checks.heartbeats_table(None, databases=["default"])) == []
    assert ids(checks.heartbeats_table(None)) == []  # a plain `check` needs no database
    tables = ["other"]
    monkeypatch.setattr(
        type(connection.introspection), "table_names", lambda self, cursor=None: tables
    )
    # A database nothing was migrated into yet is migrate's to set up.
    assert ids(checks.heartbeats_table(None, databases=["default"])) == []
    tables.append("django_migrations")
    (warning,) = checks.heartbeats_table(None, databases=["default"])
    assert warning.id == "operations.W001"
    assert "operations_jobheartbeat" in warning.msg and "migrate" in str(warning.hint)


def test_a_backup_dir_missing_in_production_is_a_warning(
    settings: Settings, tmp_path: Path
) -> None:
    settings.DEBUG = False
    settings.BACKUP_DIR = str(tmp_path)
    assert checks.backup_dir in registry.get_checks()
    assert checks.heartbeats_table in registry.get_checks()
    assert checks.backup_dir(None) == []
    settings.BACKUP_DIR = str(tmp_path / "not-mounted")
    (warning,) = checks.backup_dir(None)
    assert warning.id == "operations.W002"
    assert "not-mounted" in warning.msg and "does not exist" in warning.msg
    settings.DEBUG = True  # a development machine writes where it stands
    assert checks.backup_dir(None) == []


def test_a_production_mailer_that_only_prints_is_a_deploy_warning(settings: Settings) -> None:
    settings.DEBUG = False
    settings.MAILERS = {"default": {"BACKEND": "readinglist.mail.ConsoleEmailBackend"}}
    (warning,) = checks.mail_transport(None)
    assert warning.id == "operations.W003" and "EMAIL_URL" in str(warning.hint)
    settings.MAILERS = {"default": {"BACKEND": "readinglist.mail.SMTPEmailBackend"}}
    assert checks.mail_transport(None) == []
    assert checks.mail_transport in registry.get_checks(include_deployment_checks=True)
    assert checks.mail_transport not in registry.get_checks()


def test_hosts_exempt_from_the_outbound_guard_are_a_deploy_warning(settings: Settings) -> None:
    settings.DEBUG = False
    settings.METADATA_ALLOWED_HOSTS = ["mirror.internal"]
    (warning,) = checks.outbound_policy(None)
    assert warning.id == "operations.W004" and "mirror.internal" in warning.msg
    settings.METADATA_ALLOWED_HOSTS = []
    assert checks.outbound_policy(None) == []
