"""Match imported references to published sources by DOI, arXiv id, URL or name, in a fixed
number of queries whatever the number of entries."""

import re
from dataclasses import dataclass

from accounts.models import User
from catalog.identity import work_keys, work_keys_or_empty
from catalog.models import ListEntry, Source
from catalog.urlcanon import InvalidURL

from ..models import Bookmark
from .entries import ImportEntry


@dataclass
class Match:
    entry: ImportEntry
    source: Source | None = None
    matched_by: str = ""
    existing_status: str = ""

    @property
    def existing_label(self) -> str:
        return Bookmark.Status(self.existing_status).label if self.existing_status else ""

    @property
    def is_new(self) -> bool:
        return self.source is not None and not self.existing_status


def _name(text: str) -> str:
    return " ".join(re.findall(r"\w+", (text or "").lower()))


def _main_title(text: str) -> str:
    return re.split(r"[:\u2013\u2014]| - ", text, maxsplit=1)[0]


class CatalogIndex:
    """Every published source by each of its identity keys (catalog.identity) and names: two
    queries."""

    def __init__(self) -> None:
        self.by_key: dict[str, Source] = {}
        self.by_name: dict[str, Source] = {}
        sources = Source.objects.published().only(
            "id",
            "slug",
            "title",
            "full_title",
            "url",
            "aliases",
            "arxiv_id",
            "doi",
            "isbn",
            "repository",
        )
        by_pk: dict[int, Source] = {}
        for source in sources:
            by_pk[source.pk] = source
            for key in source_keys(source):
                self.by_key.setdefault(key, source)
            for name in (source.title, source.full_title, *source.alias_list):
                self.by_name.setdefault(_name(name), source)
        labels = ListEntry.objects.exclude(label="").values_list("source_id", "label")
        for source_id, label in labels:
            if source_id in by_pk:
                self.by_name.setdefault(_name(label), by_pk[source_id])

    def find(self, entry: ImportEntry) -> tuple[Source | None, str]:
        url_keys = work_keys_or_empty(entry.url)
        wanted = [
            (f"doi:{entry.doi.lower()}" if entry.doi else "", "DOI"),
            (f"arxiv:{entry.arxiv}" if entry.arxiv else "", "arXiv id"),
        ] + [(key.casefold(), _REASONS[key.split(":", 1)[0]]) for key in url_keys.keys]
        for key, reason in wanted:
            if key and key in self.by_key:
                return self.by_key[key], reason
        for name in (_name(entry.title), _name(_main_title(entry.title))):
            if name and name in self.by_name:
                return self.by_name[name], "title"
        return None, ""


_REASONS = {
    "arxiv": "arXiv id",
    "doi": "DOI",
    "isbn": "ISBN",
    "openreview": "OpenReview id",
    "repository": "repository",
    "url": "URL",
}


def source_keys(source: Source) -> list[str]:
    """A source's identity keys: its stored identifiers and those its URL names."""
    keys = [key.casefold() for key in work_keys_or_empty(source.url).keys]
    stored = {"arxiv": source.arxiv_id, "doi": source.doi, "isbn": source.isbn}
    keys += [f"{kind}:{value}".casefold() for kind, value in stored.items() if value]
    if source.repository:
        keys.append(f"repository:{source.repository}".casefold())
    return keys


def skip_bad_urls(entries: list[ImportEntry]) -> tuple[list[ImportEntry], list[str]]:
    """Entries whose URL is no web address are left out, each with a line saying why; the
    rest of the file is imported."""
    kept, problems = [], []
    for entry in entries:
        try:
            work_keys(entry.url)
        except InvalidURL as exc:
            name = f"“{entry.key}”" if entry.key else "this entry"
            problems.append(
                f"Line {entry.line}: {name} has a URL that is not valid ({exc}); skipped."
            )
        else:
            kept.append(entry)
    return kept, problems


def match_entries(user: User, entries: list[ImportEntry]) -> list[Match]:
    """Each entry with the source it names, if any, and the reader's status for it already."""
    index = CatalogIndex()
    matches = [Match(entry, *index.find(entry)) for entry in entries]
    matched_ids = {m.source.pk for m in matches if m.source is not None}
    statuses = dict(
        Bookmark.objects.filter(user=user, source_id__in=matched_ids).values_list(
            "source_id", "status"
        )
    )
    for match in matches:
        if match.source is not None:
            match.existing_status = statuses.get(match.source.pk, "")
    return matches
