"""The read model of "My library": grouped, filtered, counted, in a constant number of queries.

A page shows a bounded number of cards whatever the library holds: each status group its first
GROUP_SIZE, and a group on its own (a status chosen) one page of GROUP_SIZE at a time. "Show more"
asks for the group's next page; without JavaScript it is a link to that page.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db.models import Count

from .forms import ACTION_CHOICES
from .models import Bookmark, Dismissal

if TYPE_CHECKING:
    from accounts.models import User

    from .forms import LibraryFilterForm
    from .querysets import BookmarkQuerySet

# Currently reading first, then the queue, then what is done.
GROUP_ORDER = [Bookmark.Status.READING, Bookmark.Status.TO_READ, Bookmark.Status.READ]
GLANCE_SIZE = 5
HIDDEN_SHOWN = 100
# Cards per group and per page: 3 groups of 10 keep the first page near 80 KB of HTML (a
# library card with its controls is about 2.2 KB) and its render near a near-empty library's.
GROUP_SIZE = 10


@dataclass
class Group:
    status: str
    label: str
    bookmarks: list
    total: int = 0
    page: int = 1

    @property
    def pages(self) -> int:
        return max(1, -(-self.total // GROUP_SIZE))

    @property
    def next_page(self) -> int | None:
        return self.page + 1 if self.page < self.pages else None

    @property
    def previous_page(self) -> int | None:
        return self.page - 1 if self.page > 1 else None

    @property
    def remaining(self) -> int:
        return max(0, self.total - self.page * GROUP_SIZE)


def status_counts(user: User) -> dict[str, Any]:
    counts = dict(
        Bookmark.objects.of(user).values_list("status").annotate(n=Count("pk")).order_by()
    )
    return {
        "all": sum(counts.values()),
        "tabs": [(status, status.label, counts.get(status, 0)) for status in GROUP_ORDER],
    }


def page_number(value: str | None) -> int:
    """A page number from the URL; anything but a positive integer is the first page."""
    try:
        number = int(value or 1)
    except ValueError:
        return 1
    return max(1, min(number, 10_000))


def _groups(matching: BookmarkQuerySet, filters: dict, page: int) -> list[Group]:
    """One counting query, then one bounded query per group shown (at most three)."""
    totals = dict(matching.order_by().values_list("status").annotate(n=Count("pk")))
    chosen = filters["status"]
    groups = []
    for status in GROUP_ORDER:
        if chosen and chosen != status:
            continue
        total = totals.get(status, 0)
        # Only a group shown on its own turns pages; past the last page shows the last one.
        number = min(page, max(1, -(-total // GROUP_SIZE))) if chosen else 1
        start = (number - 1) * GROUP_SIZE
        # Asked even for an empty group, so the page runs the same statements at any size.
        rows = (
            matching.with_status(status)
            .for_cards()
            .sorted_by(filters["sort"], reading_list=filters["list"])[start : start + GROUP_SIZE]
        )
        groups.append(Group(status, status.label, list(rows), total=total, page=number))
    return groups


def library_page(user: User, form: LibraryFilterForm, page: str | None = None) -> dict[str, Any]:
    filters = form.filters()
    mine = Bookmark.objects.of(user)
    matching = (
        mine.in_topic(filters["topic"])
        .in_tier(filters["tier"])
        .in_list(filters["list"])
        .search(filters["q"])
    )
    groups = _groups(matching, filters, page_number(page))
    return {
        "form": form,
        "filtered": form.active,
        "groups": groups,
        # The one group a "Show more" request renders.
        "group": groups[0] if len(groups) == 1 else None,
        "found": sum(group.total for group in groups),
        "counts": status_counts(user),
        # Lazy: only the whole page lists them, not the fragments HTMX asks for.
        "dismissals": Dismissal.objects.filter(user=user)
        .select_related("source")
        .only("reason", "created", "source", "source__slug", "source__title")[:HIDDEN_SHOWN],
        "reading_now": list(
            mine.with_status(Bookmark.Status.READING)
            .select_related("source")
            .order_by("-started_at", "-pk")[:GLANCE_SIZE]
        ),
        "finished": list(
            mine.with_status(Bookmark.Status.READ)
            .select_related("source")
            .order_by("-finished_at", "-pk")[:GLANCE_SIZE]
        ),
        "bulk_choices": ACTION_CHOICES,
    }
