"""The practitioners' vocabulary kept beside a catalog file (`needs.toml`): per source slug, the
phrases a reader who does not know the source's name uses for the need it answers. They join the
source's keywords when the catalog is read, so search finds them as it finds keywords; the file
is kept apart so that the catalog's own words stay what the judged paraphrase set is checked
against."""

import re
import tomllib
from pathlib import Path

from .catalog_document import CatalogDocument, CatalogFileError

NEEDS_FILE = "needs.toml"


def needs_path(catalog: Path) -> Path | None:
    """The vocabulary file beside a TOML catalog, if there is one (an export carries its
    keywords already merged)."""
    if catalog.suffix.lower() == ".json":
        return None
    path = catalog.with_name(NEEDS_FILE)
    return path if path.is_file() else None


def merge_needs(doc: CatalogDocument, path: Path) -> CatalogDocument:
    """Append each slug's phrases to that source's keywords, skipping phrases it already has.
    A slug that names no source, or phrases that are not a list of strings, is an error naming
    the file, the line and the slug."""
    name = str(path)
    text = path.read_text(encoding="utf-8")
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        line = getattr(exc, "lineno", None)
        raise CatalogFileError(name, line, "file", "-", f"is not valid TOML: {exc}") from exc
    sources = {source["slug"]: source for source in doc["sources"]}
    for slug, phrases in raw.items():
        entry = f"needs '{slug}'"
        line = _line_of(text, slug)
        source = sources.get(slug)
        if source is None:
            raise CatalogFileError(name, line, entry, "-", "names no source in the catalog")
        if not isinstance(phrases, list) or not all(isinstance(p, str) for p in phrases):
            raise CatalogFileError(name, line, entry, slug, "must be a list of phrases")
        if any(";" in phrase for phrase in phrases):
            raise CatalogFileError(name, line, entry, slug, "a phrase may not contain ';'")
        source["keywords"] = _merged(source["keywords"], phrases)
    return doc


def _merged(keywords: str, phrases: list[str]) -> str:
    kept = [k for k in keywords.split("; ") if k]
    seen = {k.casefold() for k in kept}
    for phrase in (p.strip() for p in phrases):
        if phrase and phrase.casefold() not in seen:
            kept.append(phrase)
            seen.add(phrase.casefold())
    return "; ".join(kept)


def _line_of(text: str, slug: str) -> int | None:
    key = re.compile(rf"""^\s*(?:{re.escape(slug)}|"{re.escape(slug)}"|'{re.escape(slug)}')\s*=""")
    for number, line in enumerate(text.splitlines(), start=1):
        if key.match(line):
            return number
    return None
