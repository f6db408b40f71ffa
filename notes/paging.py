"""Pages of a list that grows with a team: no COUNT(*), one query for the rows shown.

A page fetches one row more than it shows to know whether another page follows, so its cost is
the page's rows whatever the team has written; the links say Newer and Older, not "of N".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.db.models import QuerySet

MAX_PAGE = 10_000


@dataclass
class PeekPage:
    object_list: list
    number: int
    has_next: bool

    @property
    def has_previous(self) -> bool:
        return self.number > 1

    @property
    def has_other_pages(self) -> bool:
        return self.has_next or self.has_previous

    @property
    def next_page_number(self) -> int:
        return self.number + 1

    @property
    def previous_page_number(self) -> int:
        return self.number - 1


def peek_page(
    queryset: QuerySet,
    number: str | None,
    size: int,
    *,
    display: Callable[[QuerySet], QuerySet] | None = None,
) -> PeekPage:
    """Page `number` (1 for anything but a positive integer) of an ordered `queryset`.

    The ordering must be total (ending in the primary key) so no row moves between pages.
    `display` adds what the rows are shown with (their related rows); it is applied to the
    page's rows alone, chosen first by a subquery that joins nothing, so the database joins a
    page's worth of rows rather than every row it orders.
    """
    try:
        page = max(1, min(int(number or 1), MAX_PAGE))
    except ValueError:
        page = 1
    start = (page - 1) * size
    if display is None:
        rows = list(queryset[start : start + size + 1])
    else:
        keys = queryset.values("pk")[start : start + size + 1]
        shown = queryset.model._default_manager.filter(pk__in=keys)
        rows = list(display(shown).order_by(*queryset.query.order_by))
    return PeekPage(object_list=rows[:size], number=page, has_next=len(rows) > size)
