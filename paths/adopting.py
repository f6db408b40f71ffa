"""A community path adopted by the maintainers as a curated list: its sections and steps copied
in order into the catalog's list tables, the path remembering the list it became."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Max
from django.utils.text import slugify

from catalog.models import ListEntry, ListSection, ReadingList

from .models import Path

SLUG_MAX = 50


def unique_slug(title: str) -> str:
    base = (slugify(title) or "list")[: SLUG_MAX - 4].strip("-") or "list"
    taken = set(ReadingList.objects.filter(slug__startswith=base).values_list("slug", flat=True))
    slug, n = base, 2
    while slug in taken:
        slug, n = f"{base}-{n}", n + 1
    return slug


@transaction.atomic
def adopt_as_list(path: Path) -> ReadingList:
    top = ReadingList.objects.aggregate(top=Max("position"))["top"]
    reading_list = ReadingList.objects.create(
        slug=unique_slug(path.title),
        title=path.title,
        publisher=path.owner_name,
        description=path.description,
        position=0 if top is None else top + 1,
    )
    steps = path.steps.order_by("section__position", "section_id", "position", "pk")
    by_section: dict[int, list[int]] = {}
    for section_id, source_id in steps.values_list("section_id", "source_id"):
        by_section.setdefault(section_id, []).append(source_id)
    position = 0
    slugs: set[str] = set()
    for section in path.sections.order_by("position", "pk"):
        sources = by_section.get(section.pk)
        if not sources:
            continue
        position += 1
        title = section.title or f"Part {position}"
        slug = slugify(title)[:45] or f"part-{position}"
        if slug in slugs:
            slug = f"{slug}-{position}"
        slugs.add(slug)
        list_section = ListSection.objects.create(
            reading_list=reading_list, slug=slug, title=title, position=position
        )
        ListEntry.objects.bulk_create(
            ListEntry(section=list_section, source_id=source_id, position=index)
            for index, source_id in enumerate(sources, start=1)
        )
    path.adopted_as = reading_list
    path.save(update_fields=["adopted_as"])
    return reading_list
