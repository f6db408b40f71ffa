"""Claims the docs make about the code's shape, checked: the stylesheets' tokens
(docs/design.md), the tests' folders (docs/architecture.md), and the size of modules and
functions (docs/architecture.md, "The rooms every app keeps")."""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CSS = ROOT / "static" / "css"
DESIGN = (ROOT / "docs" / "design.md").read_text()
ARCHITECTURE = (ROOT / "docs" / "architecture.md").read_text()
APPS = sorted(
    p.parent.name for p in ROOT.glob("*/apps.py") if p.parent.name not in {"readinglist", "tests"}
)
# Test folders that follow no app: the browser tests and the production process's.
TEST_FOLDERS_OF_NO_APP = {"e2e", "production"}
MODULE_LINES = 400
FUNCTION_LINES = 60
# Modules over MODULE_LINES today, each with the most lines it may have until it is split;
# the docs name them. Remove a line when its module is split: the test then holds it to 400.
OVER_LONG: dict[str, int] = {}


def root_tokens() -> set[str]:
    """The custom properties the site stylesheet defines in its :root blocks."""
    text = (CSS / "site.css").read_text()
    blocks = re.findall(r":root\s*\{([^}]*)\}", text)
    return {name for block in blocks for name in re.findall(r"(--[\w-]+)\s*:", block)}


def documented_tokens() -> set[str]:
    section = DESIGN.split("## Tokens", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"`(--[\w-]+)`", section))


def test_the_design_doc_names_every_token_the_stylesheet_defines_and_no_other() -> None:
    assert documented_tokens() == root_tokens()


def test_every_stylesheet_uses_only_defined_tokens_and_no_literal_colour() -> None:
    defined = root_tokens()
    for sheet in CSS.glob("*.css"):
        text = sheet.read_text()
        used = set(re.findall(r"var\((--[\w-]+)", text))
        assert used <= defined, (sheet.name, used - defined)
        outside_root = re.sub(r":root\s*\{[^}]*\}", "", text)
        assert not re.findall(r"#[0-9a-fA-F]{3,8}\b", outside_root), sheet.name


def test_the_design_doc_names_every_stylesheet() -> None:
    for sheet in CSS.glob("*.css"):
        assert f"static/css/{sheet.name}" in DESIGN, sheet.name


def test_every_app_has_its_test_folder_and_every_test_folder_an_app() -> None:
    folders = {p.name for p in (ROOT / "tests").iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert folders == set(APPS) | TEST_FOLDERS_OF_NO_APP
    for app in APPS:
        assert list((ROOT / "tests" / app).glob("test_*.py")), f"tests/{app}/ holds no test"
    assert "`tests/<app>/`, one folder per app" in ARCHITECTURE


def app_modules() -> list[Path]:
    return [
        path
        for package in [*APPS, "readinglist"]
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts
    ]


def test_no_module_is_over_400_lines_but_the_named_ones_which_do_not_grow() -> None:
    over = {}
    for path in app_modules():
        name = str(path.relative_to(ROOT))
        lines = len(path.read_text().splitlines())
        if lines > OVER_LONG.get(name, MODULE_LINES):
            over[name] = lines
    assert over == {}
    for name in OVER_LONG:
        assert f"`{name}`" in ARCHITECTURE, f"docs/architecture.md should name {name}"


def test_no_function_is_over_60_lines() -> None:
    over = {}
    for path in app_modules():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > FUNCTION_LINES:
                    over[f"{path.relative_to(ROOT)}:{node.name}"] = lines
    assert over == {}
