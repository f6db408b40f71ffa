from ..related.models import SourceNeighbour
from .changes import ChangeLogEntry
from .sources import ListEntry, ListSection, ReadingList, Source, Tier, Topic

__all__ = [
    "ChangeLogEntry",
    "ListEntry",
    "ListSection",
    "ReadingList",
    "Source",
    "SourceNeighbour",
    "Tier",
    "Topic",
]
