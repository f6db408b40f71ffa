from .changes import ChangeLogEntry
from .proposals import Decision, Proposal
from .sources import ListEntry, ListSection, ReadingList, Source, Tier, Topic

__all__ = [
    "ChangeLogEntry",
    "Decision",
    "ListEntry",
    "ListSection",
    "Proposal",
    "ReadingList",
    "Source",
    "Tier",
    "Topic",
]
