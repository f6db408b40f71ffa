"""A reader's data out of readinglist: bookmarks (with what other apps contribute, such as notes)
as CSV and JSON, a reading list as Markdown with the reader's status ticks, and the library's
sources as citations.

Everything here reads only the given user's rows.
"""

import csv
import io
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Prefetch
from django.http import HttpRequest
from django.utils import timezone

from accounts.models import User
from catalog.models import ListEntry, ListSection, ReadingList, Source

from .models import Bookmark

CSV_COLUMNS = [
    "source_slug",
    "source_title",
    "source_url",
    "catalog_page",
    "status",
    "saved_at",
    "started_at",
    "finished_at",
]
TICKS: dict[str, str] = {Bookmark.Status.READ: "[x]", Bookmark.Status.READING: "[~]"}
UNTICKED = "[ ]"
# A spreadsheet runs a cell starting with one of these as a formula.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]<>()#+!|])")
# Several texts on one source share its cell, separated as in Markdown.
CELL_SEPARATOR = "\n\n---\n\n"


@dataclass(frozen=True)
class Contribution:
    """What a reader writes about sources in another app (their notes), exported with the library.

    Apps that build on the library register one (see `contribute`), so the library's export
    includes them without the library importing those apps.
    """

    name: str  # the JSON document's key and the CSV column
    records: Callable[[User, HttpRequest], list[dict[str, Any]]]
    texts: Callable[[User], list[tuple[Source, str]]]  # in export order


_contributions: dict[str, Contribution] = {}


def contribute(contribution: Contribution) -> None:
    _contributions[contribution.name] = contribution


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None


def _bookmarks(user: User) -> list[Bookmark]:
    return list(Bookmark.objects.of(user).select_related("source").order_by("saved_at", "pk"))


def _page(request: HttpRequest, source: Source) -> str:
    return request.build_absolute_uri(source.get_absolute_url())


def _bookmark_record(bookmark: Bookmark, request: HttpRequest) -> dict[str, Any]:
    source = bookmark.source
    return {
        "source": {
            "slug": source.slug,
            "title": source.title,
            "url": source.url,
            "page": _page(request, source),
        },
        "status": bookmark.status,
        "saved_at": _iso(bookmark.saved_at),
        "started_at": _iso(bookmark.started_at),
        "finished_at": _iso(bookmark.finished_at),
    }


def library_document(user: User, request: HttpRequest) -> dict[str, Any]:
    """The reader's bookmarks and every contribution (their notes) as one JSON-ready document."""
    document: dict[str, Any] = {
        "exported": timezone.now().isoformat(),
        "reader": user.email,
        "bookmarks": [_bookmark_record(b, request) for b in _bookmarks(user)],
    }
    for name, contribution in _contributions.items():
        document[name] = contribution.records(user, request)
    return document


def _cell(value: object) -> str:
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(FORMULA_START) else text


def _texts_by_source(user: User) -> tuple[dict[str, dict[int, list[str]]], dict[int, Source]]:
    """{contribution name: {source_id: [text, …]}} and the sources they mention, in order."""
    texts: dict[str, dict[int, list[str]]] = {}
    sources: dict[int, Source] = {}
    for name, contribution in _contributions.items():
        texts[name] = {}
        for source, text in contribution.texts(user):
            texts[name].setdefault(source.pk, []).append(text)
            sources.setdefault(source.pk, source)
    return texts, sources


def library_csv(user: User, request: HttpRequest) -> str:
    """One row per source in the library, each contribution (notes) in a last column; sources
    the reader wrote about without saving them follow, with an empty status."""
    texts, mentioned = _texts_by_source(user)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([*CSV_COLUMNS, *texts])

    def row(source: Source, bookmark: Bookmark | None) -> list[str | None]:
        return [
            source.slug,
            source.title,
            source.url,
            _page(request, source),
            bookmark.status if bookmark else "",
            _iso(bookmark.saved_at) if bookmark else "",
            _iso(bookmark.started_at) if bookmark else "",
            _iso(bookmark.finished_at) if bookmark else "",
            *(CELL_SEPARATOR.join(by_source.get(source.pk, [])) for by_source in texts.values()),
        ]

    saved: set[int] = set()
    for bookmark in _bookmarks(user):
        saved.add(bookmark.source_id)
        writer.writerow([_cell(value) for value in row(bookmark.source, bookmark)])
    for source_id, source in mentioned.items():
        if source_id not in saved:
            writer.writerow([_cell(value) for value in row(source, None)])
    return out.getvalue()


def library_sources(user: User, status: str = "") -> list[Source]:
    """The sources in the reader's library (those with one reading status, when given), in the
    order they were saved, for citations."""
    sources = Source.objects.filter(bookmarks__user=user)
    if status:
        sources = sources.filter(bookmarks__status=status)
    return list(sources.select_related("tier").order_by("bookmarks__saved_at", "pk"))


def markdown_text(text: str) -> str:
    return MARKDOWN_SPECIAL.sub(r"\\\1", " ".join(text.split()))


def reading_list_markdown(reading_list: ReadingList, user: User, request: HttpRequest) -> str:
    """The list in its own order, each entry ticked with the reader's status:
    [x] read, [~] reading, [ ] to read or not saved."""
    statuses = dict(Bookmark.objects.of(user).values_list("source_id", "status"))
    ordered_entries = ListEntry.objects.select_related("source").order_by("position")
    sections = ListSection.objects.filter(reading_list=reading_list).order_by("position")
    sections = sections.prefetch_related(Prefetch("entries", queryset=ordered_entries))
    lines = [f"# {markdown_text(reading_list.title)}", ""]
    if reading_list.publisher:
        lines += [f"From {markdown_text(reading_list.publisher)}.", ""]
    lines += [
        f"Exported {timezone.localtime():%Y-%m-%d} from <{_list_page(request, reading_list)}> "
        f"for {user.email}. [x] read, [~] reading, [ ] not read yet.",
        "",
    ]
    for section in sections:
        lines += [f"## {markdown_text(section.title)}", ""]
        entries = section.entries.all()
        for entry in entries:
            tick = TICKS.get(statuses.get(entry.source_id, ""), UNTICKED)
            title = markdown_text(entry.display_title)
            link = entry.source.url or _page(request, entry.source)
            lines.append(f"- {tick} [{title}](<{link}>)")
        if not entries:
            lines.append("_This section is empty._")
        lines.append("")
    return "\n".join(lines)


def _list_page(request: HttpRequest, reading_list: ReadingList) -> str:
    return request.build_absolute_uri(reading_list.get_absolute_url())
