from .changes import ChangeLogEntry
from .proposals import Decision, Proposal
from .search_entries import SearchEntry
from .sources import ListEntry, ListSection, ReadingList, Source, Tier, Topic

__all__ = [
    "ChangeLogEntry",
    "Decision",
    "ListEntry",
    "ListSection",
    "Proposal",
    "ReadingList",
    "SearchEntry",
    "Source",
    "Tier",
    "Topic",
]
