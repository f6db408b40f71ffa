"""The deployment checks of caches, file storage, mail and the outbound limits: each warns about
one mistake and is quiet about a sound setting."""

from collections.abc import Iterable
from pathlib import Path

from django.core.checks import CheckMessage, Tags
from django.core.checks.registry import registry
from pytest_django import Settings

from operations import checks


def ids(messages: Iterable[CheckMessage]) -> list[str | None]:
    return [message.id for message in messages]


def test_they_run_with_deploy_only() -> None:
    every = registry.get_checks(include_deployment_checks=True)
    plain = registry.get_checks()
    for check in (
        checks.caches_answer,
        checks.database_caches_answer,
        checks.storage_writable,
        checks.mail_settings,
        checks.outbound_limits,
    ):
        assert check in every and check not in plain
    assert Tags.caches in checks.caches_answer.tags


def test_a_cache_that_keeps_nothing_is_a_warning(settings: Settings) -> None:
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
        "broken": {"BACKEND": "tests.operations.test_deploy_checks.ForgetfulCache"},
    }
    (warning,) = checks.caches_answer(None)
    assert warning.id == "operations.W005" and "'broken'" in warning.msg


def test_a_cache_that_raises_is_a_warning_not_a_crash(settings: Settings) -> None:
    settings.CACHES = {"default": {"BACKEND": "tests.operations.test_deploy_checks.DownCache"}}
    (warning,) = checks.caches_answer(None)
    assert warning.id == "operations.W005" and "ConnectionError" in warning.msg


def test_database_caches_are_asked_only_with_a_database(settings: Settings, db: None) -> None:
    assert Tags.database in checks.database_caches_answer.tags
    assert Tags.database not in checks.caches_answer.tags
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "nope"}
    }
    assert checks.caches_answer(None) == []
    (warning,) = checks.database_caches_answer(None)
    assert warning.id == "operations.W005"


def test_the_test_runs_caches_answer(db: None) -> None:
    assert checks.caches_answer(None) == checks.database_caches_answer(None) == []


def test_an_upload_folder_nobody_may_write_is_a_warning(settings: Settings, tmp_path: Path) -> None:
    settings.FILE_UPLOAD_TEMP_DIR = str(tmp_path)
    settings.MEDIA_ROOT = str(tmp_path / "media")
    assert checks.storage_writable(None) == []
    settings.FILE_UPLOAD_TEMP_DIR = str(tmp_path / "missing")
    (warning,) = checks.storage_writable(None)
    assert warning.id == "operations.W006" and "FILE_UPLOAD_TEMP_DIR" in (warning.hint or "")


def test_media_root_is_probed_and_left_clean(settings: Settings, tmp_path: Path) -> None:
    settings.FILE_UPLOAD_TEMP_DIR = str(tmp_path)
    settings.MEDIA_ROOT = str(tmp_path / "media")
    assert checks.storage_writable(None) == []
    assert list((tmp_path / "media").iterdir()) == []  # the probe file is gone
    (tmp_path / "locked").write_text("a file where a folder should be")
    settings.MEDIA_ROOT = str(tmp_path / "locked")
    (warning,) = checks.storage_writable(None)
    assert warning.id == "operations.W006" and "MEDIA_ROOT" in warning.msg


def test_a_sender_at_localhost_is_a_warning_in_production(settings: Settings) -> None:
    settings.DEBUG = False
    settings.MAILERS = {"default": {"BACKEND": "readinglist.mail.SMTPEmailBackend"}}
    settings.DEFAULT_FROM_EMAIL = "readinglist <noreply@localhost>"
    (warning,) = checks.mail_settings(None)
    assert warning.id == "operations.W007" and "noreply@localhost" in warning.msg
    settings.DEFAULT_FROM_EMAIL = "readinglist <noreply@reading.example.org>"
    assert checks.mail_settings(None) == []
    settings.DEBUG = True
    settings.DEFAULT_FROM_EMAIL = "noreply@localhost"
    assert checks.mail_settings(None) == []


def test_an_smtp_password_without_tls_is_a_warning(settings: Settings) -> None:
    settings.DEBUG = False
    settings.DEFAULT_FROM_EMAIL = "noreply@reading.example.org"
    options = {"host": "smtp.example.org", "username": "site", "password": "secret"}
    settings.MAILERS = {"default": {"BACKEND": "x", "OPTIONS": options}}
    assert ids(checks.mail_settings(None)) == ["operations.W008"]
    settings.MAILERS = {"default": {"BACKEND": "x", "OPTIONS": {**options, "use_tls": True}}}
    assert checks.mail_settings(None) == []


def test_outbound_limits_that_fail_every_fetch_are_a_warning(settings: Settings) -> None:
    assert checks.outbound_limits(None) == []
    settings.OUTBOUND_MAX_BYTES = 0
    (warning,) = checks.outbound_limits(None)
    assert warning.id == "operations.W009" and "OUTBOUND_MAX_BYTES" in warning.msg


class ForgetfulCache:
    """A cache that accepts every write and keeps none, as a fail-open Redis does when down."""

    def __init__(self, location: str, params: dict[str, object]) -> None:
        pass

    def set(self, *args: object, **kwargs: object) -> None:
        pass

    def get(self, *args: object, **kwargs: object) -> None:
        return None

    def delete(self, *args: object, **kwargs: object) -> None:
        pass

    def close(self, **kwargs: object) -> None:
        pass


class DownCache(ForgetfulCache):
    def set(self, *args: object, **kwargs: object) -> None:
        raise ConnectionError("no answer from 10.0.0.9:6379")
