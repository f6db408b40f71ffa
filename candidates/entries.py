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


def parse_feed(body: bytes | str, *, name: str = "the feed") -> list[Entry]:
    """The entries of an RSS or Atom body, newest as the feed orders them.

    Raises FeedError when the body holds no feed at all; a feed that is broken part-way keeps
    the entries read before the break (feedparser's "bozo" flag alone is not fatal).
    """
    parsed = feedparser.parse(body, sanitize_html=False, resolve_relative_uris=False)
    entries = [e for e in map(_entry, parsed.entries[:MAX_ENTRIES]) if e is not None]
    if not entries and (parsed.bozo or not parsed.feed):
        reason = getattr(parsed, "bozo_exception", None) or "no entries"
        raise FeedError(f"{name} is not a readable RSS or Atom feed ({reason}).")
    return entries


def total_results(body: bytes | str) -> int | None:
    """The arXiv API's opensearch:totalResults, when the body carries it."""
    parsed = feedparser.parse(body)
    value = parsed.feed.get("opensearch_totalresults")
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None
