from ..related.models import SourceNeighbour
from .changes import ChangeLogEntry, ChangeLogSeen
from .citing import CitationPreference
from .sources import ListEntry, ListSection, ReadingList, Source, Tier, Topic

__all__ = [
    "ChangeLogEntry",
    "ChangeLogSeen",
    "CitationPreference",
    "ListEntry",
    "ListSection",
    "ReadingList",
    "Source",
    "SourceNeighbour",
    "Tier",
    "Topic",
]
