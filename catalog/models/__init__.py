from ..related.models import SourceNeighbour
from .changes import ChangeLogEntry, ChangeLogSeen
from .citing import CitationPreference
from .lists import ListEntry, ListSection, ReadingList
from .sources import Source, Tier, Topic

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
