"""docs/wiring.md's generated half: every hidden hop, read from the running code.

Signal receivers, page-cache registrations, the project's own registries, on_commit callbacks,
database triggers, the files that write rows with hand-written SQL and the template seams (tag
libraries loaded and URL namespaces named by each app's templates). tests/test_wiring.py compares
it with the page.
"""

import ast
import re
import sys
import weakref
from collections.abc import Iterator
from pathlib import Path

from django.apps import apps
from django.dispatch import Signal

ROOT = Path(__file__).resolve().parent.parent
# Every app of the project (a folder with an apps.py) and the project package itself.
PACKAGES = tuple(
    sorted(
        {p.parent.name for p in ROOT.glob("*/apps.py") if p.parent.name != "tests"}
        | {"readinglist"}
    )
)
BEGIN, END = "<!-- BEGIN GENERATED: tests/wiring_listing.py -->", "<!-- END GENERATED -->"


def _ours(module: str) -> bool:
    return module.split(".")[0] in PACKAGES


def _name(obj: object) -> str:
    return f"{obj.__module__}.{getattr(obj, '__qualname__', type(obj).__qualname__)}"


def _signals() -> Iterator[tuple[str, Signal]]:
    seen: set[int] = set()
    # A signal's own module first, so an alias a project module imports it under is not used.
    for module_name, module in sorted(
        sys.modules.items(), key=lambda item: (_ours(item[0]), item[0])
    ):
        if module is None or module_name.split(".")[0] not in {"django", "allauth", *PACKAGES}:
            continue
        for attr, value in sorted(vars(module).items()):
            if isinstance(value, Signal) and id(value) not in seen:
                seen.add(id(value))
                yield f"{module_name}.{attr}", value


def _senders() -> dict[int, str]:
    return {id(model): model._meta.label for model in apps.get_models(include_auto_created=True)}


def receivers() -> list[str]:
    senders = _senders()
    rows = []
    for signal_name, signal in _signals():
        for (_key, sender_id), receiver, _sender_ref, _async in signal.receivers:
            function = receiver() if isinstance(receiver, weakref.ref) else receiver
            if function is None or not _ours(getattr(function, "__module__", "")):
                continue
            sender = senders.get(sender_id, "any sender")
            rows.append(f"| `{signal_name.rsplit('.', 1)[1]}` | {sender} | `{_name(function)}` |")
    return sorted(set(rows))


def pagecache_rules() -> list[str]:
    from readinglist.pagecache.registry import _memberships, _rules

    rows = [
        f"| {m._meta.label} | memberships | team, user | who is in which team |"
        for m in _memberships
    ]
    for model, rule in _rules.items():
        owner = "" if rule.scope in ("catalog", "none") or rule.teams else rule.owner
        rows.append(f"| {model._meta.label} | {rule.scope} | {owner} | {rule.reason} |")
    return sorted(rows)


def registries() -> list[str]:
    from accounts.signup import _gates
    from catalog.related.hooks import _providers
    from library.exports import _contributions

    rows = [f"| sign-up gate (`accounts.signup`) | `{_name(g)}` |" for g in _gates]
    rows += [f"| co-reading counts (`catalog.related.hooks`) | `{_name(p)}` |" for p in _providers]
    rows += [f"| library export (`library.exports`) | `{name}` |" for name in _contributions]
    return sorted(rows)


def on_commit_callbacks() -> list[str]:
    rows = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            tree = ast.parse(path.read_text())
            for function in ast.walk(tree):
                if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                    continue
                calls = [
                    node
                    for node in ast.walk(function)
                    if isinstance(node, ast.Call)
                    and getattr(node.func, "attr", getattr(node.func, "id", "")) == "on_commit"
                ]
                if calls:
                    module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
                    rows.append(f"| `{module}.{function.name}` |")
    return sorted(set(rows))


def database_triggers() -> list[str]:
    from search.triggers import declared_triggers

    return sorted({f"| `{t.name}` | `{t.table}` | {t.events} |" for t in declared_triggers()})


# A statement that writes rows, as it starts in a string of Python code (an f-string's literal
# parts included): what a hand-written INSERT, UPDATE, DELETE, TRUNCATE or COPY looks like.
_ROW_WRITE = re.compile(
    r"\bINSERT\s+INTO\b|\bDELETE\s+FROM\b|\bUPDATE\s+\"?\w+\"?\s+SET\b|\bTRUNCATE\s+\w"
    r"|\bON\s+CONFLICT\b|\bFROM\s+STDIN\b"
)


def _docstrings(tree: ast.AST) -> set[int]:
    kinds = ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef
    return {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, kinds)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }


def raw_row_writes() -> list[str]:
    """The project's files (outside migrations) whose code holds SQL that writes rows."""
    paths = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            tree = ast.parse(path.read_text())
            skip = _docstrings(tree)
            if any(
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and id(node) not in skip
                and _ROW_WRITE.search(node.value)
                for node in ast.walk(tree)
            ):
                paths.append(str(path.relative_to(ROOT)))
    return paths


_LOAD = re.compile(r"{%\s*load\s+([^%]+?)\s*%}")
_URL = re.compile(r"{%\s*(?:url|fixed_url|slug_url)\s+['\"]([\w-]+):")


def template_seams() -> list[str]:
    rows = []
    for folder in sorted((ROOT / "templates").iterdir()):
        if not folder.is_dir():
            continue
        libraries: set[str] = set()
        namespaces: set[str] = set()
        for path in folder.rglob("*"):
            if path.suffix not in {".html", ".txt", ".ics"}:
                continue
            text = path.read_text()
            for match in _LOAD.findall(text):
                libraries.update(word for word in match.split() if word != "from")
            namespaces.update(_URL.findall(text))
        rows.append(
            f"| `templates/{folder.name}/` | {', '.join(sorted(libraries)) or '—'} | "
            f"{', '.join(sorted(namespaces)) or '—'} |"
        )
    return rows


def generated() -> str:
    sections = [
        ("Signal receivers", "| signal | sender | receiver |\n| --- | --- | --- |", receivers()),
        (
            "Page-cache registrations",
            "| model | scope | owner | reason (exempt) |\n| --- | --- | --- | --- |",
            pagecache_rules(),
        ),
        ("The project's registries", "| registry | registered |\n| --- | --- |", registries()),
        (
            "Functions that defer work with on_commit",
            "| function |\n| --- |",
            on_commit_callbacks(),
        ),
        (
            "Database triggers (PostgreSQL)",
            "| trigger | table | events |\n| --- | --- | --- |",
            database_triggers(),
        ),
        (
            "Files that write rows with hand-written SQL (outside migrations)",
            "| file |\n| --- |",
            [f"| `{path}` |" for path in raw_row_writes()],
        ),
        (
            "Template seams",
            "| templates | tag libraries loaded | URL namespaces named |\n| --- | --- | --- |",
            template_seams(),
        ),
    ]
    parts = [BEGIN]
    for title, header, rows in sections:
        parts += [f"### {title}", "", header, *rows, ""]
    parts.append(END)
    return "\n".join(parts)
