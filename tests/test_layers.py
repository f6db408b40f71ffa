"""The import rules docs/architecture.md states, checked over the source tree.

Each app may import only the apps its row names; the project package imports no app outside
its composition root; nothing imports the benchmarks, and only the project's URL configuration
imports the site's pages. Imports inside functions count too: a deferred import is still an
arrow.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Which apps each app may import (every app may also use `accounts` for the reader's type).
ALLOWED: dict[str, set[str]] = {
    "catalog": set(),
    "accounts": set(),
    # Search finds catalog sources; the pages that show results, a followed search's digest
    # and the session planner's suggestions use it.
    "search": {"catalog"},
    "proposals": {"catalog"},
    "teams": {"catalog", "search"},
    "library": {"catalog", "proposals", "teams", "search"},
    "notes": {"catalog", "library", "teams"},
    # Team threads on sources; the reader's teams come from the library's per-request lookup.
    "discussions": {"catalog", "library", "teams"},
    # A team's own sources: private catalog rows the team's membership decides who sees.
    "teamsources": {"catalog", "teams"},
    "candidates": {"catalog", "proposals"},
    # A path's steps are catalog sources; a team owns its paths; the goal draft reads search;
    # progress along a path is the library's bookmarks; an import offers to propose what the
    # catalog lacks.
    "paths": {"catalog", "search", "teams", "library", "proposals"},
    # The operator's tools work on the whole database through Django's registry, naming no app.
    "operations": set(),
    "bench": {
        "catalog",
        "search",
        "proposals",
        "teams",
        "library",
        "notes",
        "candidates",
        "operations",
        "paths",
    },
    # The site's pages combine every app; nothing imports them (the project's urls.py mounts them).
    "pages": {
        "catalog",
        "search",
        "proposals",
        "teams",
        "library",
        "notes",
        "candidates",
        "operations",
        "paths",
        "discussions",
        "teamsources",
    },
}
# Modules that break their app's row until they move, each with where it goes: the search
# result's citation export calls search, and belongs with the search results page in pages.
NOT_YET_MOVED: dict[str, set[str]] = {
    "catalog/views/exports.py": {"search"},
}
APPS = set(ALLOWED)
EVERY_APP_MAY_USE = {"accounts"}
# The project package's composition root: the only modules in readinglist/ that name apps.
COMPOSITION_ROOT = {"settings.py", "urls.py", "wsgi.py", "asgi.py"}


def imported_apps(path: Path) -> set[str]:
    """The project apps a module imports, at any depth of the module."""
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names & (APPS | {"readinglist"})


def python_files(package: str) -> list[Path]:
    return [p for p in (ROOT / package).rglob("*.py") if "migrations" not in p.parts]


def test_the_table_names_every_app_on_disk() -> None:
    on_disk = {
        p.parent.name
        for p in ROOT.glob("*/apps.py")
        if p.parent.name not in {"readinglist", "tests"}
    }
    assert on_disk == APPS, "add the new app's row to ALLOWED and to docs/architecture.md"


@pytest.mark.parametrize("app", sorted(APPS))
def test_apps_import_only_what_their_row_allows(app: str) -> None:
    allowed = ALLOWED[app] | EVERY_APP_MAY_USE | {app, "readinglist"}
    wrong = {}
    for path in python_files(app):
        name = str(path.relative_to(ROOT))
        if beyond := imported_apps(path) - allowed - NOT_YET_MOVED.get(name, set()):
            wrong[name] = sorted(beyond)
    assert wrong == {}


def test_the_project_package_imports_no_app_outside_its_composition_root() -> None:
    wrong = {
        str(path.relative_to(ROOT)): sorted(imported_apps(path) - {"readinglist"})
        for path in python_files("readinglist")
        if not (path.parent.name == "readinglist" and path.name in COMPOSITION_ROOT)
        and imported_apps(path) - {"readinglist"}
    }
    assert wrong == {}


def test_only_the_project_urls_import_the_site_pages() -> None:
    """pages uses every app, so an app that imported it would close a loop; only
    readinglist/urls.py, which mounts its URLs and sitemaps, may."""
    importers = {
        str(path.relative_to(ROOT))
        for package in (*sorted(APPS - {"pages"}), "readinglist")
        for path in python_files(package)
        if "pages" in imported_apps(path)
    }
    assert importers == {"readinglist/urls.py"}


def test_the_rule_catches_an_upward_import(tmp_path: Path) -> None:
    module = tmp_path / "helper.py"
    module.write_text("def f():\n    from catalog.models import Source\n    return Source\n")
    assert imported_apps(module) == {"catalog"}


def named_apps(path: Path) -> set[str]:
    """The project apps a module names in a dotted string, as settings do ("accounts.User")."""
    tree = ast.parse(path.read_text(), filename=str(path))
    return {
        node.value.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and "." in node.value
    } & APPS


def test_the_settings_parts_name_no_app() -> None:
    """settings.py names the apps, their middleware, hashers and adapters; the functions it calls
    to build longer values stay outside the composition root, in imports and in strings alike."""
    parts = sorted((ROOT / "readinglist" / "settings_parts").glob("*.py"))
    assert parts
    assert {p.name: sorted(named_apps(p)) for p in parts if named_apps(p)} == {}
    assert "accounts" in named_apps(ROOT / "readinglist" / "settings.py")
