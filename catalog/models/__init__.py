from ..related.models import SourceNeighbour
from .changes import ChangeLogEntry
from .search_entries import SearchEntry
from .sources import ListEntry, ListSection, ReadingList, Source, Tier, Topic

__all__ = [
    "ChangeLogEntry",
    "ListEntry",
    "ListSection",
    "ReadingList",
    "SearchEntry",
    "Source",
    "SourceNeighbour",
    "Tier",
    "Topic",
]
