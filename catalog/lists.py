"""Reading lists in their own order: a list's sections with their entries, and the Start-here
path (a section of the first list) with its practical companion. The pages and the library's
progress both read them."""

from django.db.models import Prefetch

from .models import ListEntry, ListSection, ReadingList

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
