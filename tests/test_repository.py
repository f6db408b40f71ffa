"""The repository tracks no file that .gitignore excludes (tools, databases, builds, secrets)."""

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def tracked_but_ignored(root: Path) -> list[str]:
    result = subprocess.run(
        ["git", "ls-files", "--cached", "--ignored", "--exclude-standard"],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stdout.split()


@pytest.fixture
def checkout() -> Path:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    return ROOT


def test_no_tracked_file_sits_under_an_ignored_path(checkout: Path) -> None:
    assert tracked_but_ignored(checkout) == []


def test_the_check_sees_a_tracked_ignored_file(tmp_path: Path) -> None:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    git = ["git", "-c", "user.email=t@example.invalid", "-c", "user.name=t"]
    subprocess.run([*git, "init", "-q"], cwd=tmp_path, check=True)
    (tmp_path / "tool.jar").write_text("binary")
    subprocess.run([*git, "add", "tool.jar"], cwd=tmp_path, check=True)
    (tmp_path / ".gitignore").write_text("*.jar\n")
    assert tracked_but_ignored(tmp_path) == ["tool.jar"]
