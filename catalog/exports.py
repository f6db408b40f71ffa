"""The catalog as one JSON document: what `export_catalog` writes and `/catalog.json` serves.

`load_catalog` reads this document back, so an export loaded into an empty database exports
again to the same document.
"""

import datetime
from collections import defaultdict

from django.db.models import Prefetch

from .catalog_document import CatalogDocument, CatalogItem
from .models import ListEntry, ListSection, ReadingList, Source, Tier, Topic


def _date(value: datetime.date | None) -> str | None:
    return value.isoformat() if value else None


def catalog_document() -> CatalogDocument:
    return {
        "lists": _lists(),
        "tiers": _tiers(),
        "topics": _topics(),
        "sources": _sources(),
    }


def _lists() -> list[CatalogItem]:
    reading_lists = ReadingList.objects.order_by("position", "slug").prefetch_related(
        Prefetch("sections", queryset=ListSection.objects.order_by("position"))
    )
    return [
        {
            "slug": rl.slug,
            "title": rl.title,
            "publisher": rl.publisher,
            "url": rl.url,
            "licence": rl.licence,
            "verified_on": _date(rl.verified_on),
            "description": rl.description,
            "contribution_rules": rl.contribution_rules,
            "position": rl.position,
            "sections": [
                {"slug": s.slug, "title": s.title, "description": s.description}
                for s in rl.sections.all()
            ],
        }
        for rl in reading_lists
    ]


def _tiers() -> list[CatalogItem]:
    return [
        {
            "slug": t.slug,
            "name": t.name,
            "position": t.position,
            "description": t.description,
            "rule": t.rule,
        }
        for t in Tier.objects.order_by("position", "slug")
    ]


def _topics() -> list[CatalogItem]:
    return [
        {
            "slug": t.slug,
            "name": t.name,
            "parent": t.parent.slug if t.parent else "",
            "position": t.position,
            "description": t.description,
        }
        for t in Topic.objects.select_related("parent").order_by("position", "slug")
    ]


def _entries_by_source() -> dict[int, list[CatalogItem]]:
    """Where each source is cited, in list, section and entry order."""
    entries: dict[int, list[CatalogItem]] = defaultdict(list)
    for entry in ListEntry.objects.select_related("section__reading_list").order_by(
        "section__reading_list__position", "section__position", "position"
    ):
        entries[entry.source_id].append(
            {
                "list": entry.section.reading_list.slug,
                "section": entry.section.slug,
                "position": entry.position,
                "label": entry.label,
            }
        )
    return entries


def _record(source: Source) -> CatalogItem:
    """The full record and identifiers, under the catalog file's own keys."""
    verified_from = None
    if source.verified_from_url:
        verified_from = {
            "url": source.verified_from_url,
            "on": _date(source.verified_from_date),
        }
    return {
        "full_title": source.full_title,
        "arxiv": source.arxiv_id,
        "doi": source.doi,
        "isbn": source.isbn,
        "repository": source.repository,
        "verified_from": verified_from,
    }


def _sources() -> list[CatalogItem]:
    entries = _entries_by_source()
    sources = Source.objects.select_related("tier", "replaced_by").prefetch_related(
        Prefetch("topics", queryset=Topic.objects.order_by("position", "slug")),
        Prefetch("related", queryset=Source.objects.order_by("slug")),
    )
    return [
        {
            "slug": s.slug,
            "title": s.title,
            "url": s.url,
            "kind": s.kind,
            "basis": s.basis,
            "authors": s.authors,
            "venue": s.venue,
            "year": s.year,
            "tier": s.tier.slug,
            "topics": [t.slug for t in s.topics.all()],
            "summary": s.summary,
            "aliases": s.alias_list,
            "keywords": s.keyword_list,
            "related": [r.slug for r in s.related.all()],
            "replaced_by": s.replaced_by.slug if s.replaced_by else "",
            "status": s.status,
            "awaiting_evidence": s.awaiting_evidence,
            "verified_on": _date(s.verified_on),
            **_record(s),
            "entries": entries[s.pk],
        }
        for s in sources.order_by("slug")
    ]
