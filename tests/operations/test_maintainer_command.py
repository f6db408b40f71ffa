"""Making a maintainer leaves the site's address where `make run` put it."""

import shutil
import subprocess

import pytest
from django.contrib.sites.models import Site
from django.core.management import call_command
from pytest_django import Settings

from readinglist.local_server import BASE_DIR


def test_create_maintainer_keeps_the_site_address(
    db: None, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The address a shell without SITE_DOMAIN would give, unlike the one the site serves on.
    settings.SITE_DOMAIN = "127.0.0.1:8000"
    monkeypatch.setenv("MAINTAINER_PASSWORD", "a long and unusual passphrase")
    call_command(
        "create_maintainer",
        "curator@example.com",
        password_from_env="MAINTAINER_PASSWORD",
        verbosity=0,
    )
    assert Site.objects.get_current().domain == "readinglist.test"


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_make_maintainer_does_not_run_migrate_over_the_site_address() -> None:
    planned = subprocess.run(
        ["make", "--dry-run", "maintainer", "EMAIL=curator@example.com"],
        cwd=BASE_DIR,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert 'manage.py create_maintainer "curator@example.com"' in planned
    assert "manage.py migrate" not in planned
