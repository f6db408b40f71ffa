"""Match imported references to published sources by DOI, arXiv id, URL or name, in a fixed
number of queries whatever the number of entries."""

import re
from dataclasses import dataclass

from catalog.models import ListEntry, Source
from catalog.urlcanon import InvalidURL, canonical_url
from proposals.identifiers import normalise_arxiv, normalise_doi

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
    """Every published source by each of its identifiers and names: two queries."""

    def __init__(self):
        self.by_url: dict[str, Source] = {}
        self.by_doi: dict[str, Source] = {}
        self.by_arxiv: dict[str, Source] = {}
        self.by_name: dict[str, Source] = {}
        sources = Source.objects.published().only("id", "slug", "title", "url", "aliases")
        by_pk = {}
        for source in sources:
            by_pk[source.pk] = source
            self._add_identifiers(source)
            for name in (source.title, *source.alias_list):
                self.by_name.setdefault(_name(name), source)
        labels = ListEntry.objects.exclude(label="").values_list("source_id", "label")
        for source_id, label in labels:
            if source_id in by_pk:
                self.by_name.setdefault(_name(label), by_pk[source_id])

    def _add_identifiers(self, source: Source) -> None:
        if not source.url:
            return
        self.by_url[source.url] = source
        if doi := normalise_doi(source.url):
            self.by_doi[doi] = source
        if paper := normalise_arxiv(source.url):
            self.by_arxiv[paper] = source

    def find(self, entry: ImportEntry) -> tuple[Source | None, str]:
        if entry.doi and entry.doi in self.by_doi:
            return self.by_doi[entry.doi], "DOI"
        if entry.arxiv and entry.arxiv in self.by_arxiv:
            return self.by_arxiv[entry.arxiv], "arXiv id"
        try:
            url = canonical_url(entry.url)
        except InvalidURL:
            url = ""
        if url and url in self.by_url:
            return self.by_url[url], "URL"
        for name in (_name(entry.title), _name(_main_title(entry.title))):
            if name and name in self.by_name:
                return self.by_name[name], "title"
        return None, ""


def match_entries(user, entries: list[ImportEntry]) -> list[Match]:
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
