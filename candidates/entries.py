"""Feed bodies (arXiv API Atom, GitHub releases Atom, blogs' RSS or Atom) read into entries."""

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from time import struct_time
from typing import Any

import feedparser

# A feed's entries beyond this are not read: a runaway or hostile feed costs a bounded time.
MAX_ENTRIES = 5_000
_SPACES = re.compile(r"\s+")
_TAGS = re.compile(r"<[^>]+>")
_ARXIV_ABS = re.compile(r"arxiv\.org/abs/(?P<id>[^\s?#]+?)(?:v\d+)?$")


class FeedError(ValueError):
    """A body that is not a readable feed; the message names what was wrong."""


@dataclass(frozen=True)
class Entry:
    title: str
    url: str
    abstract: str = ""
    authors: str = ""
    published: datetime | None = None
    categories: tuple[str, ...] = ()
    arxiv: str = ""
    doi: str = ""
    extra: dict[str, str] = field(default_factory=dict)


def clean(text: str) -> str:
    """One line of plain text: markup dropped, white space folded."""
    return _SPACES.sub(" ", _TAGS.sub(" ", text or "")).strip()


def _moment(parsed: struct_time | None) -> datetime | None:
    if not parsed:
        return None
    return datetime(*parsed[:6], tzinfo=UTC)


def _arxiv_id(raw: Any) -> str:
    found = _ARXIV_ABS.search(raw.get("id", "") or raw.get("link", ""))
    return found["id"] if found else ""


def _entry(raw: Any) -> Entry | None:
    title = clean(raw.get("title", ""))
    url = raw.get("link", "") or raw.get("id", "")
    if not title or not url.startswith(("http://", "https://")):
        return None
    authors = ", ".join(clean(a.get("name", "")) for a in raw.get("authors", []) if a.get("name"))
    return Entry(
        title=title[:500],
        url=url[:2000],
        abstract=clean(raw.get("summary", ""))[:5000],
        authors=authors or clean(raw.get("author", "")),
        published=_moment(raw.get("published_parsed") or raw.get("updated_parsed")),
        categories=tuple(t["term"] for t in raw.get("tags", []) if t.get("term"))[:20],
        arxiv=_arxiv_id(raw),
        doi=clean(raw.get("arxiv_doi", "")),
    )


@dataclass
class ParsedFeed:
    """A feed's usable entries, and why each entry that could not be used was skipped."""

    entries: list[Entry] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)


def _skip_reason(raw: Any, error: Exception) -> str:
    title = clean(str(raw.get("title", "")))[:120] or "an entry without a title"
    return f"“{title}”: {error}"[:300]


def parse_feed(body: bytes | str, *, name: str = "the feed") -> ParsedFeed:
    """The entries of an RSS or Atom body, newest as the feed orders them.

    Raises FeedError when the body holds no feed at all; a feed that is broken part-way keeps
    the entries read before the break (feedparser's "bozo" flag alone is not fatal). A feed
    fails one entry at a time: an entry that cannot be read (a date feedparser makes year 0,
    anything else that raises) is skipped with its reason, and the others are read.
    """
    parsed = feedparser.parse(body, sanitize_html=False, resolve_relative_uris=False)
    read = ParsedFeed()
    for raw in parsed.entries[:MAX_ENTRIES]:
        try:
            entry = _entry(raw)
        except Exception as exc:  # whatever one entry holds, the feed's other entries count
            read.skipped.append(_skip_reason(raw, exc))
            continue
        if entry is not None:
            read.entries.append(entry)
    if not read.entries and not read.skipped and (parsed.bozo or not parsed.feed):
        reason = getattr(parsed, "bozo_exception", None) or "no entries"
        raise FeedError(f"{name} is not a readable RSS or Atom feed ({reason}).")
    return read


def total_results(body: bytes | str) -> int | None:
    """The arXiv API's opensearch:totalResults, when the body carries it."""
    parsed = feedparser.parse(body)
    value = parsed.feed.get("opensearch_totalresults")
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None
