"""The Makefile: `make run` installs only what the site needs, `make test` the rest."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from readinglist.local_server import BASE_DIR
from tests.hints import found

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="needs make")


def makefile_text() -> str:
    return (BASE_DIR / "Makefile").read_text()


def planned(*args: object) -> str:
    """The commands make would run from scratch (-B: as if nothing were installed yet)."""
    result = subprocess.run(
        ["make", "--dry-run", "--always-make", *map(str, args)],
        cwd=BASE_DIR,
        # A Python given: make skips looking for one, which starts several interpreters.
        env={**os.environ, "PYTHON": sys.executable},
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_make_run_installs_the_runtime_dependencies_only() -> None:
    commands = planned("run")
    installs = [line for line in commands.splitlines() if "pip install" in line]
    assert installs and all(line.rstrip().endswith("-e .") for line in installs), installs
    assert "[dev]" not in commands
    assert "npm" not in commands and "vnu" not in commands
    assert "manage.py runserver" in commands


def test_make_test_installs_the_dev_extras_and_the_validator() -> None:
    commands = planned("test")
    assert "pip install --quiet -e '.[dev]'" in commands
    assert "vnu-jar@" in commands
    assert "pytest" in commands


TARGETS = ["run", "test", "bench", "loadtest", "backup", "lint", "typecheck", "format"]
TARGETS += ["restore FILE=x.json.gz"]


@pytest.mark.parametrize(
    "target",
    TARGETS,
)
def test_every_documented_target_exists(target: str) -> None:
    planned(*target.split())


def test_the_validator_installs_into_a_fresh_clone_without_tools(tmp_path: Path) -> None:
    # A stand-in npm on PATH records its arguments and creates what npm would.
    shutil.copy(BASE_DIR / "Makefile", tmp_path / "Makefile")
    fake_bin = tmp_path / "bin"
    fake_bin.mkdir()
    npm = fake_bin / "npm"
    npm.write_text(
        '#!/bin/sh\necho "$@" > "$NPM_LOG"\n'
        "mkdir -p .tools/node_modules/vnu-jar/build/dist && touch "
        ".tools/node_modules/vnu-jar/build/dist/vnu.jar\n"
    )
    npm.chmod(0o755)
    env = {
        **os.environ,
        "PATH": f"{fake_bin}:{os.environ['PATH']}",
        "NPM_LOG": str(tmp_path / "log"),
    }
    version = found(re.search(r"^VNU_VERSION := (\S+)$", makefile_text(), re.M)).group(1)
    stamp = f".tools/.vnu-{version}"
    assert not (tmp_path / ".tools").exists()
    result = subprocess.run(
        ["make", stamp], cwd=tmp_path, env=env, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert (tmp_path / stamp).is_file()
    assert "--prefix .tools vnu-jar@" in (tmp_path / "log").read_text()


def test_backup_and_restore_leave_a_deployments_env_file_in_charge(tmp_path: Path) -> None:
    """With a .env beside it, `make restore` passes no development address or DEBUG of its own:
    the restore's migrate writes the site's address from the deployment's settings."""
    for name in ("Makefile", "pyproject.toml"):
        shutil.copy(BASE_DIR / name, tmp_path / name)
    env = {**os.environ, "PYTHON": sys.executable}
    command = ["make", "--dry-run", "--always-make", "restore", "FILE=x.json.gz"]

    def planned_restore() -> str:
        result = subprocess.run(
            command, cwd=tmp_path, env=env, capture_output=True, text=True, check=True
        )
        return next(line for line in result.stdout.splitlines() if "manage.py restore" in line)

    assert "SITE_DOMAIN=" in planned_restore()  # a fresh clone: the development values
    (tmp_path / ".env").write_text("SITE_DOMAIN=reading.example.org\n")
    assert "SITE_DOMAIN=" not in planned_restore() and "DEBUG=" not in planned_restore()
