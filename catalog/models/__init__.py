from .sources import ListEntry, ListSection, ReadingList, Source, Tier, Topic

__all__ = ["ListEntry", "ListSection", "ReadingList", "Source", "Tier", "Topic"]
