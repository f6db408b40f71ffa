"""Read models for pages that gather several querysets (home, list, path)."""

from django.db.models import Prefetch

from .models import ListEntry, ListSection, ReadingList, Source, Tier, Topic

START_HERE_LIST_SECTION = "start-here"
COMPANION_LIST_SECTION = "practical-companion"


def path_entries() -> list[ListEntry]:
    """The Start-here path: the entries of the first list's start-here section, in order."""
    return list(
        ListEntry.objects.filter(section__slug=START_HERE_LIST_SECTION)
        .select_related("source__tier", "section__reading_list")
        .order_by("section__reading_list__position", "position")
    )


def companion_entries() -> list[ListEntry]:
    """What the Start-here path names as its practical companion (the GPU Mode lectures)."""
    return list(
        ListEntry.objects.filter(section__slug=COMPANION_LIST_SECTION)
        .select_related("source")
        .order_by("section__reading_list__position", "position")
    )


def list_sections(reading_list: ReadingList) -> list[ListSection]:
    entries = ListEntry.objects.select_related("source__tier").order_by("position")
    return list(
        ListSection.objects.filter(reading_list=reading_list)
        .order_by("position")
        .prefetch_related(Prefetch("entries", queryset=entries))
    )


def home_context() -> dict[str, object]:
    return {
        "path": path_entries(),
        "companions": companion_entries(),
        "tiers": Tier.objects.all(),
        "topics": Topic.objects.filter(parent=None).with_counts(),
        "lists": ReadingList.objects.all(),
        "recent": Source.objects.published().for_cards().newest()[:6],
    }
