"""Read a catalog file (the shipped TOML, or a JSON export) into one validated document.

Every problem is reported with the file, the line where the offending entry starts, the entry
and the field, before anything is written.
"""

import json
import re
import tomllib
from pathlib import Path
from typing import Any

from .catalog_document import CatalogDocument, CatalogFileError, Locator, Validator
from .catalog_needs import merge_needs, needs_path

DEFAULT_CATALOG = Path(__file__).resolve().parent / "data" / "catalog.toml"


def _line_in_message(message: str) -> int | None:
    # tomllib before Python 3.14 only puts the position in the message text.
    match = re.search(r"at line (\d+)", message)
    return int(match[1]) if match else None


def read_catalog(path: str | Path = DEFAULT_CATALOG) -> CatalogDocument:
    """Parse and validate a catalog file; return the normalised document, each source's
    keywords joined by its practitioners' vocabulary from `needs.toml` beside a TOML file."""
    path = Path(path)
    name = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise CatalogFileError(name, None, "file", "-", f"cannot be read ({exc.strerror})") from exc
    is_toml = path.suffix.lower() != ".json"
    try:
        raw = tomllib.loads(text) if is_toml else json.loads(text)
    except tomllib.TOMLDecodeError as exc:
        line = getattr(exc, "lineno", None) or _line_in_message(str(exc))
        raise CatalogFileError(name, line, "file", "-", f"is not valid TOML: {exc}") from exc
    except json.JSONDecodeError as exc:
        raise CatalogFileError(
            name, exc.lineno, "file", "-", f"is not valid JSON: {exc.msg}"
        ) from exc
    if not is_toml:
        raw = _from_export(raw)
    doc = Validator(name, Locator(text, is_toml)).validate(raw)
    needs = needs_path(path)
    return merge_needs(doc, needs) if needs else doc


def _from_export(raw: Any) -> Any:
    """An export lists each source's entries; the loader wants each section's entries in order."""
    if not isinstance(raw, dict):
        return raw
    sections: dict[tuple[str | None, str | None], dict[str, Any]] = {}
    for reading_list in raw.get("lists", []):
        for section in reading_list.get("sections", []):
            section.setdefault("entries", [])
            sections[(reading_list.get("slug"), section.get("slug"))] = section
    placed = []
    for source in raw.get("sources", []):
        for entry in source.pop("entries", []) or []:
            placed.append((entry, source.get("slug")))
    for entry, slug in sorted(placed, key=lambda pair: pair[0].get("position", 0)):
        section = sections.get((entry.get("list"), entry.get("section")))
        if section is None:
            raise CatalogFileError(
                "export",
                None,
                f"source '{slug}'",
                "entries",
                f"names unknown list section {entry.get('list')}/{entry.get('section')}",
            )
        section["entries"].append({"source": slug, "label": entry.get("label", "")})
    for source in raw.get("sources", []):
        for key in ("tier", "verified_on"):
            if source.get(key) is None:
                source.pop(key, None)
    return raw
