"""The validated catalog document: its shape, and the checks that give every problem with the
file, the line where the offending entry starts, the entry and the field."""

import datetime
import re
from dataclasses import dataclass
from typing import Any, NoReturn

from .catalog_identifiers import first_shared_key, identifier_fields
from .urlcanon import InvalidURL, canonical_url

AUTHORS_MAX_LENGTH = 3000
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
BASES = {"mechanism-paper", "specification", "implementation", "implementer-report", "none"}
STATUSES = {"published", "retired"}

# One validated entry of the document (a tier, topic, list, section or source) by field name.
type CatalogItem = dict[str, Any]
# The validated document: "tiers", "topics", "lists" and "sources", each a list of entries.
type CatalogDocument = dict[str, list[CatalogItem]]


@dataclass
class CatalogFileError(Exception):
    path: str
    line: int | None
    entry: str
    field: str
    message: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        if self.field == "-":
            return f"{where}: {self.entry} {self.message}"
        return f"{where}: {self.entry}: field '{self.field}': {self.message}"


class Locator:
    """Maps the n-th `[[table]]` of a TOML file to the line it starts on."""

    def __init__(self, text: str, is_toml: bool) -> None:
        self.lines: dict[str, list[int]] = {}
        if is_toml:
            for number, line in enumerate(text.splitlines(), start=1):
                header = line.strip()
                if header.startswith("[[") and header.endswith("]]"):
                    self.lines.setdefault(header[2:-2].strip(), []).append(number)

    def line(self, table: str, index: int) -> int | None:
        found = self.lines.get(table, [])
        return found[index] if index < len(found) else None


class Validator:
    def __init__(self, path: str, locator: Locator) -> None:
        self.path, self.locator = path, locator

    def row(self, table: str, index: int, entry: str, item: Any) -> "_Row":
        return _Row(self, table, index, entry, item if isinstance(item, dict) else {})

    def fail(self, table: str, index: int, entry: str, field: str, message: str) -> NoReturn:
        raise CatalogFileError(self.path, self.locator.line(table, index), entry, field, message)

    def slug(self, table: str, index: int, item: Any, seen: set[str]) -> str:
        value = item.get("slug") if isinstance(item, dict) else None
        entry = f"{table}[{index}]"
        if not isinstance(value, str) or not SLUG.match(value):
            self.fail(table, index, entry, "slug", "must be lower-case words joined by hyphens")
        if value in seen:
            self.fail(table, index, f"{table} '{value}'", "slug", "is used twice")
        seen.add(value)
        return value

    def validate(self, raw: Any) -> CatalogDocument:
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

    def _named(self, table: str, label: str, items: list[Any]) -> list[tuple["_Row", CatalogItem]]:
        """Tiers and topics alike: a slug, a name, a description and a position each."""
        seen: set[str] = set()
        named = []
        for index, item in enumerate(items):
            slug = self.slug(table, index, item, seen)
            row = self.row(table, index, f"{label} '{slug}'", item)
            fields = {
                "slug": slug,
                "name": row.text("name", required=True, max_length=80),
                "description": row.text("description"),
                "position": row.position(),
            }
            named.append((row, fields))
        return named

    def tiers(self, items: list[Any]) -> list[CatalogItem]:
        return [
            fields | {"rule": row.text("rule")}
            for row, fields in self._named("tiers", "tier", items)
        ]

    def topics(self, items: list[Any]) -> list[CatalogItem]:
        out = [
            fields | {"parent": row.text("parent")}
            for row, fields in self._named("topics", "topic", items)
        ]
        parents = {t["slug"]: t["parent"] for t in out}
        for index, topic in enumerate(out):
            parent = topic["parent"]
            entry = f"topic '{topic['slug']}'"
            if parent and parent not in parents:
                self.fail("topics", index, entry, "parent", f"unknown topic '{parent}'")
            if parent and (parent == topic["slug"] or parents[parent]):
                self.fail("topics", index, entry, "parent", "topics nest one level only")
        return out

    def sources(
        self, items: list[Any], tiers: set[str], topics: list[CatalogItem]
    ) -> list[CatalogItem]:
        topic_slugs = {t["slug"] for t in topics}
        seen: set[str] = set()
        urls: dict[str, str] = {}
        out = []
        for index, item in enumerate(items):
            slug = self.slug("sources", index, item, seen)
            row = self.row("sources", index, f"source '{slug}'", item)
            title = row.text("title", required=True, max_length=300)
            url = row.url(quote_input=True)
            if url and url in urls:
                row.fail("url", f"{url} is also source '{urls[url]}'")
            if url:
                urls[url] = slug
            fields = _source_fields(row, url, tiers, topic_slugs) | identifier_fields(row, url)
            out.append({"slug": slug, "title": title, "url": url} | fields)
        self._check_source_references(out)
        if shared := first_shared_key(out):
            index, field, key, other = shared
            entry = f"source '{out[index]['slug']}'"
            self.fail("sources", index, entry, field, f"{key} is also source '{other}'")
        return out

    def _check_source_references(self, sources: list[CatalogItem]) -> None:
        slugs = {s["slug"] for s in sources}
        for index, source in enumerate(sources):
            entry = f"source '{source['slug']}'"
            for other in source["related"]:
                if other not in slugs or other == source["slug"]:
                    self.fail("sources", index, entry, "related", f"unknown source '{other}'")
            if source["replaced_by"] and source["replaced_by"] not in slugs - {source["slug"]}:
                self.fail("sources", index, entry, "replaced_by", "unknown source")

    def lists(self, items: list[Any], sources: set[str]) -> list[CatalogItem]:
        seen: set[str] = set()
        out = []
        section_index = 0
        for index, item in enumerate(items):
            slug = self.slug("lists", index, item, seen)
            row = self.row("lists", index, f"list '{slug}'", item)
            url = row.url()
            sections = []
            section_slugs: set[str] = set()
            for position, section in enumerate(row.item.get("sections", []), start=1):
                section_slug = self.slug("lists.sections", section_index, section, section_slugs)
                section_row = self.row(
                    "lists.sections",
                    section_index,
                    f"list '{slug}' section '{section_slug}'",
                    section,
                )
                section_index += 1
                sections.append(_section(section_row, section_slug, position, sources))
            out.append({"slug": slug, "url": url} | _list_fields(row, sections))
        return out


class _Row:
    """One table entry under validation: where it starts, how errors name it, its fields."""

    def __init__(
        self, validator: Validator, table: str, index: int, entry: str, item: dict[str, Any]
    ) -> None:
        self.validator, self.table, self.index = validator, table, index
        self.entry, self.item = entry, item

    def fail(self, field: str, message: str) -> NoReturn:
        self.validator.fail(self.table, self.index, self.entry, field, message)

    def text(self, field: str, required: bool = False, max_length: int | None = None) -> str:
        value = self.item.get(field, "")
        if value is None:
            value = ""
        if not isinstance(value, str):
            self.fail(field, "must be a string")
        value = value.strip()
        if required and not value:
            self.fail(field, "is required")
        if max_length and len(value) > max_length:
            self.fail(field, f"is longer than {max_length} characters")
        return value

    def url(self, quote_input: bool = False) -> str:
        try:
            return canonical_url(self.text("url", max_length=2000))
        except InvalidURL as exc:
            given = f" Got {self.item.get('url')!r}." if quote_input else ""
            self.fail("url", f"{exc}{given}")

    def date(self, field: str) -> datetime.date | None:
        value = self.item.get(field)
        if value in (None, ""):
            return None
        if isinstance(value, datetime.date):
            return value
        try:
            return datetime.date.fromisoformat(str(value))
        except ValueError:
            self.fail(field, f"'{value}' is not a date (YYYY-MM-DD)")

    def position(self) -> int:
        value = self.item.get("position", self.index + 1)
        if not isinstance(value, int) or value < 0:
            self.fail("position", "must be a whole number")
        return value

    def choice(self, field: str, default: str | None, allowed: set[str]) -> str:
        value = self.item.get(field, default)
        if value not in allowed:
            self.fail(field, f"'{value}' is not one of {sorted(allowed)}")
        return value


def _source_fields(row: _Row, url: str, tiers: set[str], topic_slugs: set[str]) -> CatalogItem:
    """A source's fields besides its slug, title and URL, checked in the order they are listed."""
    kind = row.choice("kind", None, KINDS)
    basis = row.choice("basis", "none", BASES)
    tier = row.item.get("tier")
    if tier not in tiers:
        row.fail("tier", f"unknown tier '{tier}'")
    topics = _source_topics(row, topic_slugs)
    year = _year(row)
    verified_on = row.date("verified_on")
    if tier == "frontier" and not verified_on:
        row.fail("verified_on", "frontier entries need a date")
    awaiting = bool(row.item.get("awaiting_evidence", False))
    if awaiting and url:
        row.fail("awaiting_evidence", "a source with a URL has evidence")
    status = row.item.get("status", "published")
    if status not in STATUSES:
        row.fail("status", f"'{status}' is not published/retired")
    return {
        "kind": kind,
        "basis": basis,
        "authors": row.text("authors", max_length=AUTHORS_MAX_LENGTH),
        "venue": row.text("venue", max_length=300),
        "year": year,
        "tier": tier,
        "topics": topics,
        "summary": row.text("summary"),
        "aliases": _aliases(row),
        "keywords": _keywords(row),
        "related": list(row.item.get("related", [])),
        "replaced_by": row.text("replaced_by"),
        "status": status,
        "awaiting_evidence": awaiting,
        "verified_on": verified_on,
    }


def _aliases(row: _Row) -> str:
    """Aliases as one comma-separated string; the file may give a list or such a string."""
    aliases = row.item.get("aliases", [])
    if isinstance(aliases, str):
        aliases = [a.strip() for a in aliases.split(",") if a.strip()]
    return ", ".join(aliases)


def _keywords(row: _Row) -> str:
    """Keywords as one "; "-separated string; the file may give a list of phrases or such a
    string."""
    keywords = row.item.get("keywords", [])
    if isinstance(keywords, str):
        keywords = keywords.split(";")
    if not isinstance(keywords, list) or not all(isinstance(k, str) for k in keywords):
        row.fail("keywords", "must be a list of phrases")
    if any(";" in phrase for phrase in keywords):
        row.fail("keywords", "a phrase may not contain ';'")
    return "; ".join(phrase.strip() for phrase in keywords if phrase.strip())


def _year(row: _Row) -> int | None:
    year = row.item.get("year")
    if year is not None and (not isinstance(year, int) or not 1900 <= year <= 2100):
        row.fail("year", f"{year!r} is not a year 1900-2100")
    return year


def _source_topics(row: _Row, topic_slugs: set[str]) -> list[str]:
    topics = row.item.get("topics", [])
    if not isinstance(topics, list) or not topics:
        row.fail("topics", "needs at least one topic")
    for topic in topics:
        if topic not in topic_slugs:
            row.fail("topics", f"unknown topic '{topic}'")
    return list(dict.fromkeys(topics))


def _section(row: _Row, slug: str, position: int, sources: set[str]) -> CatalogItem:
    entries: list[CatalogItem] = []
    in_section: set[str] = set()
    for raw_entry in row.item.get("entries", []):
        if isinstance(raw_entry, str):
            raw_entry = {"source": raw_entry}
        source = raw_entry.get("source") if isinstance(raw_entry, dict) else None
        if source not in sources:
            row.fail("entries", f"unknown source '{source}'")
        if source in in_section:
            row.fail("entries", f"'{source}' is listed twice")
        in_section.add(source)
        entries.append({"source": source, "label": str(raw_entry.get("label") or "")})
    return {
        "slug": slug,
        "position": position,
        "title": row.text("title", required=True),
        "description": row.text("description"),
        "entries": entries,
    }


def _list_fields(row: _Row, sections: list[CatalogItem]) -> CatalogItem:
    return {
        "position": row.position(),
        "title": row.text("title", required=True),
        "publisher": row.text("publisher", max_length=200),
        "licence": row.text("licence", max_length=60),
        "description": row.text("description"),
        "contribution_rules": row.text("contribution_rules"),
        "verified_on": row.date("verified_on"),
        "sections": sections,
    }
