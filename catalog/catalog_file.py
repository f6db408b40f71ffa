"""Read a catalog file (the shipped TOML, or a JSON export) into one validated document.

Every problem is reported with the file, the line where the offending entry starts, the entry
and the field, before anything is written.
"""

import datetime
import json
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .urlcanon import InvalidURL, canonical_url

DEFAULT_CATALOG = Path(__file__).resolve().parent / "data" / "catalog.toml"
SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
KINDS = {
    "paper",
    "book",
    "documentation",
    "specification",
    "repository",
    "article",
    "course",
    "whitepaper",
    "website",
    "watch",
}
# One validated entry of the document (a tier, topic, list, section or source) by field name.
type CatalogItem = dict[str, Any]
# The validated document: "tiers", "topics", "lists" and "sources", each a list of entries.
type CatalogDocument = dict[str, list[CatalogItem]]

BASES = {"mechanism-paper", "specification", "implementation", "implementer-report", "none"}


@dataclass
class CatalogFileError(Exception):
    path: str
    line: int | None
    entry: str
    field: str
    message: str

    def __str__(self):
        where = f"{self.path}:{self.line}" if self.line else self.path
        if self.field == "-":
            return f"{where}: {self.entry} {self.message}"
        return f"{where}: {self.entry}: field '{self.field}': {self.message}"


def _line_in_message(message):
    # tomllib before Python 3.14 only puts the position in the message text.
    match = re.search(r"at line (\d+)", message)
    return int(match[1]) if match else None


class _Locator:
    """Maps the n-th `[[table]]` of a TOML file to the line it starts on."""

    def __init__(self, text, is_toml):
        self.lines = {}
        if is_toml:
            for number, line in enumerate(text.splitlines(), start=1):
                header = line.strip()
                if header.startswith("[[") and header.endswith("]]"):
                    self.lines.setdefault(header[2:-2].strip(), []).append(number)

    def line(self, table, index):
        found = self.lines.get(table, [])
        return found[index] if index < len(found) else None


def read_catalog(path=DEFAULT_CATALOG):
    """Parse and validate a catalog file; return the normalised document."""
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
    return _Validator(name, _Locator(text, is_toml)).validate(raw)


def _from_export(raw):
    """An export lists each source's entries; the loader wants each section's entries in order."""
    if not isinstance(raw, dict):
        return raw
    sections = {}
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


class _Validator:
    def __init__(self, path, locator):
        self.path, self.locator = path, locator

    def fail(self, table, index, entry, field, message):
        raise CatalogFileError(self.path, self.locator.line(table, index), entry, field, message)

    def text(self, table, index, entry, item, field, required=False, max_length=None):
        value = item.get(field, "")
        if value is None:
            value = ""
        if not isinstance(value, str):
            self.fail(table, index, entry, field, "must be a string")
        value = value.strip()
        if required and not value:
            self.fail(table, index, entry, field, "is required")
        if max_length and len(value) > max_length:
            self.fail(table, index, entry, field, f"is longer than {max_length} characters")
        return value

    def slug(self, table, index, item, seen):
        value = item.get("slug")
        entry = f"{table}[{index}]"
        if not isinstance(value, str) or not SLUG.match(value):
            self.fail(table, index, entry, "slug", "must be lower-case words joined by hyphens")
        if value in seen:
            self.fail(table, index, f"{table} '{value}'", "slug", "is used twice")
        seen.add(value)
        return value

    def date(self, table, index, entry, item, field):
        value = item.get(field)
        if value in (None, ""):
            return None
        if isinstance(value, datetime.date):
            return value
        try:
            return datetime.date.fromisoformat(str(value))
        except ValueError:
            self.fail(table, index, entry, field, f"'{value}' is not a date (YYYY-MM-DD)")

    def position(self, table, index, entry, item):
        value = item.get("position", index + 1)
        if not isinstance(value, int) or value < 0:
            self.fail(table, index, entry, "position", "must be a whole number")
        return value

    def validate(self, raw):
        if not isinstance(raw, dict):
            self.fail("file", 0, "file", "-", "must hold tables of tiers, topics, lists, sources")
        for key in ("tiers", "topics", "lists", "sources"):
            if not isinstance(raw.get(key, []), list):
                self.fail(key, 0, key, key, "must be an array of tables")
        tiers = self.tiers(raw.get("tiers", []))
        topics = self.topics(raw.get("topics", []))
        sources = self.sources(raw.get("sources", []), {t["slug"] for t in tiers}, topics)
        lists = self.lists(raw.get("lists", []), {s["slug"] for s in sources})
        return {"tiers": tiers, "topics": topics, "lists": lists, "sources": sources}

    def tiers(self, items):
        seen, out = set(), []
        for index, item in enumerate(items):
            slug = self.slug("tiers", index, item, seen)
            entry = f"tier '{slug}'"
            out.append(
                {
                    "slug": slug,
                    "name": self.text(
                        "tiers", index, entry, item, "name", required=True, max_length=80
                    ),
                    "description": self.text("tiers", index, entry, item, "description"),
                    "rule": self.text("tiers", index, entry, item, "rule"),
                    "position": self.position("tiers", index, entry, item),
                }
            )
        return out

    def topics(self, items):
        seen, out = set(), []
        for index, item in enumerate(items):
            slug = self.slug("topics", index, item, seen)
            entry = f"topic '{slug}'"
            out.append(
                {
                    "slug": slug,
                    "name": self.text(
                        "topics", index, entry, item, "name", required=True, max_length=80
                    ),
                    "description": self.text("topics", index, entry, item, "description"),
                    "parent": self.text("topics", index, entry, item, "parent"),
                    "position": self.position("topics", index, entry, item),
                }
            )
        parents = {t["slug"]: t["parent"] for t in out}
        for index, topic in enumerate(out):
            parent = topic["parent"]
            entry = f"topic '{topic['slug']}'"
            if parent and parent not in parents:
                self.fail("topics", index, entry, "parent", f"unknown topic '{parent}'")
            if parent and (parent == topic["slug"] or parents[parent]):
                self.fail("topics", index, entry, "parent", "topics nest one level only")
        return out

    def sources(self, items, tiers, topics):
        topic_slugs = {t["slug"] for t in topics}
        seen, urls, out = set(), {}, []
        for index, item in enumerate(items):
            slug = self.slug("sources", index, item, seen)
            entry = f"source '{slug}'"
            title = self.text("sources", index, entry, item, "title", required=True, max_length=300)
            try:
                url = canonical_url(
                    self.text("sources", index, entry, item, "url", max_length=2000)
                )
            except InvalidURL as exc:
                self.fail("sources", index, entry, "url", f"{exc} Got {item.get('url')!r}.")
            if url and url in urls:
                self.fail("sources", index, entry, "url", f"{url} is also source '{urls[url]}'")
            if url:
                urls[url] = slug
            kind = item.get("kind")
            if kind not in KINDS:
                self.fail(
                    "sources", index, entry, "kind", f"'{kind}' is not one of {sorted(KINDS)}"
                )
            basis = item.get("basis", "none")
            if basis not in BASES:
                self.fail(
                    "sources", index, entry, "basis", f"'{basis}' is not one of {sorted(BASES)}"
                )
            tier = item.get("tier")
            if tier not in tiers:
                self.fail("sources", index, entry, "tier", f"unknown tier '{tier}'")
            source_topics = item.get("topics", [])
            if not isinstance(source_topics, list) or not source_topics:
                self.fail("sources", index, entry, "topics", "needs at least one topic")
            for topic in source_topics:
                if topic not in topic_slugs:
                    self.fail("sources", index, entry, "topics", f"unknown topic '{topic}'")
            year = item.get("year")
            if year is not None and (not isinstance(year, int) or not 1900 <= year <= 2100):
                self.fail("sources", index, entry, "year", f"{year!r} is not a year 1900-2100")
            aliases = item.get("aliases", [])
            if isinstance(aliases, str):
                aliases = [a.strip() for a in aliases.split(",") if a.strip()]
            verified_on = self.date("sources", index, entry, item, "verified_on")
            if tier == "frontier" and not verified_on:
                self.fail("sources", index, entry, "verified_on", "frontier entries need a date")
            awaiting = bool(item.get("awaiting_evidence", False))
            if awaiting and url:
                self.fail(
                    "sources", index, entry, "awaiting_evidence", "a source with a URL has evidence"
                )
            status = item.get("status", "published")
            if status not in ("published", "retired"):
                self.fail("sources", index, entry, "status", f"'{status}' is not published/retired")
            out.append(
                {
                    "slug": slug,
                    "title": title,
                    "url": url,
                    "kind": kind,
                    "basis": basis,
                    "authors": self.text("sources", index, entry, item, "authors", max_length=300),
                    "venue": self.text("sources", index, entry, item, "venue", max_length=300),
                    "year": year,
                    "tier": tier,
                    "topics": list(dict.fromkeys(source_topics)),
                    "summary": self.text("sources", index, entry, item, "summary"),
                    "aliases": ", ".join(aliases),
                    "related": list(item.get("related", [])),
                    "replaced_by": self.text("sources", index, entry, item, "replaced_by"),
                    "status": status,
                    "awaiting_evidence": awaiting,
                    "verified_on": verified_on,
                }
            )
        slugs = {s["slug"] for s in out}
        for index, source in enumerate(out):
            entry = f"source '{source['slug']}'"
            for other in source["related"]:
                if other not in slugs or other == source["slug"]:
                    self.fail("sources", index, entry, "related", f"unknown source '{other}'")
            if source["replaced_by"] and source["replaced_by"] not in slugs - {source["slug"]}:
                self.fail("sources", index, entry, "replaced_by", "unknown source")
        return out

    def lists(self, items, sources):
        seen, out = set(), []
        section_index = 0
        for index, item in enumerate(items):
            slug = self.slug("lists", index, item, seen)
            entry = f"list '{slug}'"
            try:
                url = canonical_url(self.text("lists", index, entry, item, "url", max_length=2000))
            except InvalidURL as exc:
                self.fail("lists", index, entry, "url", str(exc))
            sections, section_slugs = [], set()
            for position, section in enumerate(item.get("sections", []), start=1):
                where = ("lists.sections", section_index)
                section_index += 1
                section_slug = self.slug(*where, section, section_slugs)
                section_entry = f"list '{slug}' section '{section_slug}'"
                entries, in_section = [], set()
                for raw_entry in section.get("entries", []):
                    if isinstance(raw_entry, str):
                        raw_entry = {"source": raw_entry}
                    source = raw_entry.get("source") if isinstance(raw_entry, dict) else None
                    if source not in sources:
                        self.fail(*where, section_entry, "entries", f"unknown source '{source}'")
                    if source in in_section:
                        self.fail(*where, section_entry, "entries", f"'{source}' is listed twice")
                    in_section.add(source)
                    entries.append({"source": source, "label": str(raw_entry.get("label") or "")})
                sections.append(
                    {
                        "slug": section_slug,
                        "position": position,
                        "title": self.text(*where, section_entry, section, "title", required=True),
                        "description": self.text(*where, section_entry, section, "description"),
                        "entries": entries,
                    }
                )
            out.append(
                {
                    "slug": slug,
                    "url": url,
                    "position": self.position("lists", index, entry, item),
                    "title": self.text("lists", index, entry, item, "title", required=True),
                    "publisher": self.text(
                        "lists", index, entry, item, "publisher", max_length=200
                    ),
                    "licence": self.text("lists", index, entry, item, "licence", max_length=60),
                    "description": self.text("lists", index, entry, item, "description"),
                    "contribution_rules": self.text(
                        "lists", index, entry, item, "contribution_rules"
                    ),
                    "verified_on": self.date("lists", index, entry, item, "verified_on"),
                    "sections": sections,
                }
            )
        return out
