"""bench reaches the apps only through names they export on purpose: no private name (a leading
underscore) is imported from an app or read off one, and every trick's switch still finds what
it switches, so a rename fails here at once rather than in a slow benchmark run."""

import ast
from pathlib import Path

import pytest

from tests.wiring_listing import PACKAGES

ROOT = Path(__file__).resolve().parent.parent.parent
APPS = set(PACKAGES) - {"bench"}


def _private_uses(path: Path) -> list[str]:
    tree = ast.parse(path.read_text())
    modules: set[str] = set()  # local names bound to an app's module
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in APPS:
            for alias in node.names:
                if alias.name.startswith("_"):
                    found.append(f"{path.name}: from {node.module} import {alias.name}")
                modules.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in APPS:
                    modules.add(alias.asname or alias.name.split(".")[0])
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and node.attr.startswith("_")
            and not node.attr.startswith("__")
            and node.attr != "_meta"  # Django's documented Model._meta API
            and isinstance(node.value, ast.Name)
            and node.value.id in modules
        ):
            found.append(f"{path.name}: {node.value.id}.{node.attr}")
    return found


def test_bench_uses_no_private_name_of_an_app() -> None:
    found = [use for path in sorted((ROOT / "bench").rglob("*.py")) for use in _private_uses(path)]
    assert found == []


def test_the_check_sees_a_private_name(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from library.templatetags import reading\n"
        "from search.shared import _private\n"
        "reading._control_html\n"
    )
    assert _private_uses(sample) == [
        "sample.py: from search.shared import _private",
        "sample.py: reading._control_html",
    ]


@pytest.mark.django_db
def test_every_tricks_switch_finds_what_it_switches() -> None:
    from bench.management.commands.bench_tricks import variants

    for name, switch in variants().items():
        if name != "facets in template loops":  # rewrites template files: checked by its own run
            with switch():
                pass
