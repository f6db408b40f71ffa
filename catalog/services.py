"""Writes to the catalog that touch several rows, each in one transaction."""

from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, TextIO

from django.db import models, transaction

from readinglist.pagecache import bump_catalog_version

from .catalog_document import CatalogDocument, CatalogItem
from .changelog import introduced_fields, record_change, record_source_edit, snapshot
from .models import ChangeLogEntry, ListEntry, ListSection, ReadingList, Source, Tier, Topic
from .progress import Progress

SOURCE_FIELDS = [
    "title",
    "url",
    "kind",
    "basis",
    "authors",
    "venue",
    "year",
    "summary",
    "aliases",
    "status",
    "awaiting_evidence",
    "verified_on",
]
# The full record, identifiers and keywords: a validated file always has them; a document built
# without them (a test's, a script's) leaves the stored values alone.
RECORD_FIELDS = [
    "keywords",
    "full_title",
    "arxiv_id",
    "doi",
    "isbn",
    "repository",
    "verified_from_url",
    "verified_from_date",
]


@dataclass
class LoadReport:
    created: Counter[str] = field(default_factory=Counter)
    updated: Counter[str] = field(default_factory=Counter)
    unchanged: Counter[str] = field(default_factory=Counter)
    deleted: Counter[str] = field(default_factory=Counter)
    kept: list[tuple[str, str]] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(
            sum(self.created.values()) + sum(self.updated.values()) + sum(self.deleted.values())
        )

    def lines(self) -> Iterator[str]:
        kinds = ["tiers", "topics", "lists", "sections", "sources"]
        for kind in kinds:
            yield (
                f"{kind}: {self.created[kind]} created, {self.updated[kind]} updated, "
                f"{self.unchanged[kind]} unchanged, {self.deleted[kind]} deleted"
            )
        for slug, reason in self.kept:
            yield f"kept source '{slug}' although the file no longer lists it: {reason}"


def _upsert[M: models.Model](
    model: type[M], lookup: dict[str, str], values: dict[str, Any], report: LoadReport, kind: str
) -> M:
    obj = model._default_manager.filter(**lookup).first()
    if obj is None:
        obj = model._default_manager.create(**lookup, **values)
        report.created[kind] += 1
        return obj
    changed = [name for name, value in values.items() if getattr(obj, name) != value]
    if changed:
        for name in changed:
            setattr(obj, name, values[name])
        obj.save()
        report.updated[kind] += 1
    else:
        report.unchanged[kind] += 1
    return obj


def _reader_references(source: Source) -> str:
    """Why a source must not be deleted: readers' data (bookmarks, notes…) protects it.

    Protection is declared where it belongs, on the referring foreign key (on_delete=PROTECT),
    so the loader needs no list of the apps that keep readers' data.
    """
    for relation in Source._meta.related_objects:
        if relation.related_model in (ListEntry, Source) or not relation.one_to_many:
            continue
        if relation.on_delete not in (models.PROTECT, models.RESTRICT):
            continue
        count = relation.related_model._default_manager.filter(
            **{relation.field.name: source}
        ).count()
        if count:
            return f"{count} {relation.related_model._meta.verbose_name_plural} refer to it"
    return ""


@transaction.atomic
def load_catalog(
    doc: CatalogDocument, *, progress: bool = True, stream: TextIO | None = None
) -> LoadReport:
    """Make the database match the document. Idempotent; never deletes what readers use."""
    report = LoadReport()
    tiers = _load_tiers(doc["tiers"], report)
    topics = _load_topics(doc["topics"], report)
    with Progress(len(doc["sources"]), "sources", stream=stream, enabled=progress) as bar:
        sources = _load_sources(doc["sources"], tiers, topics, report, bar.advance)
    _link_replacements(doc["sources"], sources)
    _sync_related(doc["sources"], sources)
    _load_lists(doc["lists"], sources, report)
    _remove_unlisted_sources(sources, report)
    # Entries are replaced with bulk_create, which sends no signal: a section that had none
    # would otherwise keep its cached pages.
    transaction.on_commit(bump_catalog_version)
    return report


def _load_tiers(items: list[CatalogItem], report: LoadReport) -> dict[str, Tier]:
    return {
        t["slug"]: _upsert(Tier, {"slug": t["slug"]}, _without(t, "slug"), report, "tiers")
        for t in items
    }


def _load_topics(items: list[CatalogItem], report: LoadReport) -> dict[str, Topic]:
    topics = {
        t["slug"]: _upsert(
            Topic, {"slug": t["slug"]}, _without(t, "slug", "parent"), report, "topics"
        )
        for t in items
    }
    # Parents second: a topic may name a parent that comes later in the file.
    for t in items:
        topic, parent = topics[t["slug"]], topics.get(t["parent"])
        if topic.parent_id != (parent.pk if parent else None):
            topic.parent = parent
            topic.save(update_fields=["parent"])
    return topics


def _load_sources(
    items: list[CatalogItem],
    tiers: dict[str, Tier],
    topics: dict[str, Topic],
    report: LoadReport,
    advance: Callable[[], None],
) -> dict[str, Source]:
    existing = {
        source.slug: source
        for source in Source.objects.select_related("tier").prefetch_related("topics")
    }
    introduced = introduced_fields(snapshot(source) for source in existing.values())
    sources = {}
    for s in items:
        values = {name: s[name] for name in SOURCE_FIELDS} | {"tier": tiers[s["tier"]]}
        values |= {name: s[name] for name in RECORD_FIELDS if name in s}
        wanted_topics = {topics[slug].pk for slug in s["topics"]}
        source = existing.get(s["slug"])
        if source is None:
            source = Source.objects.create(slug=s["slug"], **values)
            source.topics.set(wanted_topics)
            report.created["sources"] += 1
            record_source_edit(before=None, source=source, via=ChangeLogEntry.Via.LOADER)
        else:
            changed = _update_source(source, values, wanted_topics, introduced)
            (report.updated if changed else report.unchanged)["sources"] += 1
        sources[s["slug"]] = source
        advance()
    return sources


def _update_source(
    source: Source, values: dict[str, Any], wanted_topics: set[int], introduced: frozenset[str]
) -> bool:
    before = snapshot(source)
    changed = [name for name, value in values.items() if getattr(source, name) != value]
    if changed:
        for name in changed:
            setattr(source, name, values[name])
        source.save()
    if {topic.pk for topic in source.topics.all()} != wanted_topics:
        source.topics.set(wanted_topics)
        changed.append("topics")
    if changed:
        record_source_edit(
            before=before, source=source, via=ChangeLogEntry.Via.LOADER, introduced=introduced
        )
    return bool(changed)


def _link_replacements(items: list[CatalogItem], sources: dict[str, Source]) -> None:
    for s in items:
        source = sources[s["slug"]]
        replaced_by = sources[s["replaced_by"]] if s["replaced_by"] else None
        if source.replaced_by_id != (replaced_by.pk if replaced_by else None):
            source.replaced_by = replaced_by
            source.save(update_fields=["replaced_by", "updated"])
            if replaced_by is not None:
                record_change(
                    source=source,
                    kind=ChangeLogEntry.Kind.REPLACED,
                    detail=f"Superseded by {replaced_by.title}.",
                    via=ChangeLogEntry.Via.LOADER,
                )


def _sync_related(items: list[CatalogItem], sources: dict[str, Source]) -> None:
    wanted = {frozenset((s["slug"], other)) for s in items for other in s["related"]}
    through = Source.related.through
    current = {
        frozenset((a, b))
        for a, b in through.objects.filter(from_source__slug__in=sources).values_list(
            "from_source__slug", "to_source__slug"
        )
    }
    if wanted != current:
        through.objects.filter(from_source__in=sources.values()).delete()
        for pair in wanted:
            a, b = sorted(pair)
            sources[a].related.add(sources[b])


def _load_lists(items: list[CatalogItem], sources: dict[str, Source], report: LoadReport) -> None:
    lists_in_file = set()
    for position, item in enumerate(items, start=1):
        values = _without(item, "slug", "sections") | {"position": item.get("position", position)}
        reading_list = _upsert(ReadingList, {"slug": item["slug"]}, values, report, "lists")
        lists_in_file.add(reading_list.pk)
        _sync_sections(reading_list, item["sections"], sources, report)
    for reading_list in ReadingList.objects.exclude(pk__in=lists_in_file):
        reading_list.delete()
        report.deleted["lists"] += 1


def _remove_unlisted_sources(sources: dict[str, Source], report: LoadReport) -> None:
    for source in Source.objects.exclude(slug__in=set(sources)):
        reason = _reader_references(source)
        if reason:
            report.kept.append((source.slug, reason))
            continue
        record_change(
            source=source,
            kind=ChangeLogEntry.Kind.RETIRED,
            detail="Removed from the catalog file.",
            via=ChangeLogEntry.Via.LOADER,
        )
        source.delete()
        report.deleted["sources"] += 1


def _without(mapping: CatalogItem, *keys: str) -> dict[str, Any]:
    return {k: v for k, v in mapping.items() if k not in keys}


def _sync_sections(
    reading_list: ReadingList,
    sections: list[CatalogItem],
    sources: dict[str, Source],
    report: LoadReport,
) -> None:
    existing = {section.slug: section for section in reading_list.sections.all()}
    wanted = {section["slug"] for section in sections}
    for slug, unwanted in existing.items():
        if slug not in wanted:
            unwanted.delete()
            report.deleted["sections"] += 1
    # Positions are unique per list: park kept sections out of the way before renumbering.
    moved = [
        s
        for s in sections
        if s["slug"] in existing and existing[s["slug"]].position != s["position"]
    ]
    if moved:
        for slug in (s["slug"] for s in sections if s["slug"] in existing):
            existing[slug].position += 10_000
            existing[slug].save(update_fields=["position"])
    for item in sections:
        section = existing.get(item["slug"])
        if section is None:
            section = ListSection.objects.create(
                reading_list=reading_list, slug=item["slug"], **_section_values(item)
            )
            report.created["sections"] += 1
            _sync_entries(section, item, sources)
        else:
            changed = _update_section(section, item)
            changed = _sync_entries(section, item, sources) or changed
            (report.updated if changed else report.unchanged)["sections"] += 1


def _section_values(item: CatalogItem) -> dict[str, Any]:
    return {name: item[name] for name in ("title", "description", "position")}


def _update_section(section: ListSection, item: CatalogItem) -> bool:
    values = _section_values(item)
    changed = any(getattr(section, name) != value for name, value in values.items())
    if changed:
        for name, value in values.items():
            setattr(section, name, value)
        section.save()
    return changed


def _sync_entries(section: ListSection, item: CatalogItem, sources: dict[str, Source]) -> bool:
    """Replace the section's entries when they differ from the file's; whether they did."""
    wanted = [
        (position, sources[entry["source"]].pk, entry["label"])
        for position, entry in enumerate(item["entries"], start=1)
    ]
    if list(section.entries.values_list("position", "source_id", "label")) == wanted:
        return False
    section.entries.all().delete()
    ListEntry.objects.bulk_create(
        ListEntry(section=section, position=position, source_id=source_id, label=label)
        for position, source_id, label in wanted
    )
    return True
