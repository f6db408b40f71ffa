"""The Docker image, tested by building the tree it copies (no Docker engine needed): the
Dockerfile's own COPY lines, honouring .dockerignore, then `check --deploy` and `collectstatic`
there under production settings, as the image's build step runs them."""

import re
import subprocess
import sys
from pathlib import Path
from subprocess import CompletedProcess

import pytest

from readinglist.local_server import BASE_DIR, production_env
from tests.production.image_context import (
    MANAGE_IN_TREE,
    DockerIgnore,
    assemble,
    build_stage_copies,
)

# The Dockerfile as it was when the image could not be built: a list of apps, three missing.
APP_LIST_DOCKERFILE = """
FROM python:3.13-slim AS build
WORKDIR /app
COPY pyproject.toml README.md ./
COPY manage.py gunicorn.conf.py docker-entrypoint.sh ./
COPY readinglist ./readinglist
COPY catalog ./catalog
COPY accounts ./accounts
COPY templates ./templates
COPY static ./static
FROM python:3.13-slim
COPY --from=build /app /app
"""
COPIED_APPS = {"readinglist", "catalog", "accounts"}


def manage_in_tree(tree: Path, *args: str) -> CompletedProcess[str]:
    env = production_env(
        SECRET_KEY="an-image-test-secret-0123456789abcdefghijklmnopqrstuvwxyz-0123456789",
        ALLOWED_HOSTS="readinglist.example.com",
        DEFAULT_FROM_EMAIL="readinglist <noreply@readinglist.example.org>",
        DATABASE_URL=f"sqlite:///{tree / 'unused.sqlite3'}",
        SECURE_SSL_REDIRECT="true",
        STATIC_ROOT="",
    )
    for name in ("SITE_DOMAIN", "REDIS_URL", "CACHE_URL", "DJANGO_SETTINGS_MODULE", "PYTHONPATH"):
        env.pop(name, None)
    return subprocess.run(
        [sys.executable, "-c", MANAGE_IN_TREE, *args],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.fixture(scope="module")
def image_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tree = tmp_path_factory.mktemp("image") / "app"
    assemble(BASE_DIR, tree)
    return tree


def test_the_image_passes_the_deployment_checks(image_tree: Path) -> None:
    result = manage_in_tree(image_tree, "check", "--deploy", "--fail-level", "WARNING")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_the_image_collects_its_static_files(image_tree: Path) -> None:
    result = manage_in_tree(image_tree, "collectstatic", "--noinput")
    assert result.returncode == 0, result.stdout + result.stderr
    # The hashed manifest production's storage serves from, and the htmx the pages load.
    assert (image_tree / "staticfiles" / "staticfiles.json").is_file()
    assert list((image_tree / "staticfiles").rglob("htmx*.js"))


def test_the_image_has_every_installed_app_and_the_entry_point(image_tree: Path) -> None:
    for app in ("readinglist", "accounts", "catalog", "proposals", "library", "notes", "teams"):
        assert (image_tree / app / "__init__.py").is_file(), app
    assert (image_tree / "catalog" / "data" / "catalog.toml").is_file()
    for name in ("manage.py", "gunicorn.conf.py", "docker-entrypoint.sh", "templates"):
        assert (image_tree / name).exists(), name


def test_an_app_the_dockerfile_forgets_fails_the_build(tmp_path: Path) -> None:
    assemble(BASE_DIR, tmp_path, dockerfile=APP_LIST_DOCKERFILE)
    result = manage_in_tree(tmp_path, "collectstatic", "--noinput")
    assert result.returncode != 0
    missing = re.search(r"No module named '(\w+)'", result.stderr)
    assert missing, result.stderr
    assert missing.group(1) not in COPIED_APPS


def test_secrets_local_data_and_tests_stay_out_of_the_image() -> None:
    ignore = DockerIgnore((BASE_DIR / ".dockerignore").read_text())
    for path in (
        ".env",
        ".env.production",
        "db.sqlite3",
        "readinglist-backup-20260101T000000Z.json.gz",
        "backups/nightly.json.gz",
        "catalog.json",
        ".git/config",
        ".venv/bin/python",
        ".tools/node_modules/vnu-jar/package.json",
        "tests/conftest.py",
        "staticfiles/staticfiles.json",
        "catalog/__pycache__/models.cpython-313.pyc",
    ):
        assert ignore.excludes(path), path
    for path in (".env.example", "catalog/data/catalog.toml", "teams/models.py", "manage.py"):
        assert not ignore.excludes(path), path


def test_copy_lines_are_read_as_docker_reads_them() -> None:
    text = 'FROM x AS build\nCOPY --chown=app:app a \\\n    b ./dest/\nCOPY ["c d", "e"]\n'
    text += "FROM y\nCOPY f g\n"
    assert build_stage_copies(text) == [(["a", "b"], "./dest/"), (["c d"], "e")]
