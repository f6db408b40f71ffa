"""The operator's commands, as the docs tell an operator to run them."""

import re
import shutil
import subprocess
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import Client
from pytest_django import Settings

from readinglist.local_server import BASE_DIR
from teams.models import Team
from tests.factories import UserFactory


def test_create_team_prints_links_on_the_sites_address_and_scheme(
    client: Client, db: None, settings: Settings
) -> None:
    settings.SITE_DOMAIN, settings.SITE_SCHEME = "127.0.0.1:8123", "http"
    owner = UserFactory(email="owner@example.com")
    out = StringIO()
    call_command("create_team", "ops", owner="owner@example.com", stdout=out)
    team = Team.objects.get()
    assert f"Team page: http://127.0.0.1:8123/teams/{team.slug}/" in out.getvalue()
    join = re.search(r"Join link: http://127\.0\.0\.1:8123(/join/[^/\s]+/)$", out.getvalue(), re.M)
    assert join, out.getvalue()
    client.force_login(UserFactory(email="newcomer@example.com"))
    assert client.get(join.group(1)).status_code == 200
    assert team.memberships.get().user == owner


class TypedPasswords:
    def __init__(self, *answers: object) -> None:
        self.answers = list(answers)
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> object:
        self.prompts.append(prompt)
        return self.answers.pop(0)


def test_create_maintainer_asks_for_the_password_twice(
    db: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    typed = TypedPasswords("a long and unusual passphrase", "a long and unusual passphrase")
    monkeypatch.setattr("getpass.getpass", typed)
    call_command("create_maintainer", "curator@example.com", stdout=StringIO())
    assert len(typed.prompts) == 2
    user = get_user_model().objects.get(email="curator@example.com")
    assert user.is_staff and user.check_password("a long and unusual passphrase")


def test_create_maintainer_refuses_two_different_passwords(
    db: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("getpass.getpass", TypedPasswords("a long passphrase", "a long passfrase"))
    with pytest.raises(CommandError, match="The two passwords differ"):
        call_command("create_maintainer", "curator@example.com", stdout=StringIO())
    assert not get_user_model().objects.filter(email="curator@example.com").exists()


def test_create_maintainer_says_when_the_password_variable_is_unset(
    db: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("MAINTAINER_PASSWORD", raising=False)
    with pytest.raises(CommandError, match="MAINTAINER_PASSWORD is not set"):
        call_command(
            "create_maintainer",
            "curator@example.com",
            password_from_env="MAINTAINER_PASSWORD",
            stdout=StringIO(),
        )


def test_an_empty_password_variable_is_still_judged_as_a_password(
    db: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MAINTAINER_PASSWORD", "")
    with pytest.raises(CommandError, match="too short"):
        call_command(
            "create_maintainer",
            "curator@example.com",
            password_from_env="MAINTAINER_PASSWORD",
            stdout=StringIO(),
        )


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
@pytest.mark.parametrize(
    "path",
    [
        "readinglist-backup-20260101T000000Z.json.gz",  # `make backup`'s default name
        "backups/nightly.json.gz",
        "catalog.json",  # the README's `export_catalog -o catalog.json`
        ".env",
        ".env.production",
        "db.sqlite3",
        ".tools/node_modules/vnu-jar/package.json",
    ],
)
def test_backups_exports_and_secrets_are_never_committed(path: str) -> None:
    ignored = subprocess.run(
        ["git", "check-ignore", "--no-index", "--quiet", path], cwd=BASE_DIR, check=False
    )
    assert ignored.returncode == 0, f"{path} is not git-ignored"


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_the_env_example_is_not_ignored() -> None:
    ignored = subprocess.run(
        ["git", "check-ignore", "--no-index", "--quiet", ".env.example"], cwd=BASE_DIR, check=False
    )
    assert ignored.returncode == 1
