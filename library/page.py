"""The read model of "My library": grouped, filtered, counted, in a constant number of queries."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db.models import Count

from .forms import ACTION_CHOICES
from .models import Bookmark

if TYPE_CHECKING:
    from accounts.models import User

    from .forms import LibraryFilterForm

# Currently reading first, then the queue, then what is done.
GROUP_ORDER = [Bookmark.Status.READING, Bookmark.Status.TO_READ, Bookmark.Status.READ]
GLANCE_SIZE = 5


@dataclass
class Group:
    status: str
    label: str
    bookmarks: list


def status_counts(user: User) -> dict[str, Any]:
    counts = dict(
        Bookmark.objects.of(user).values_list("status").annotate(n=Count("pk")).order_by()
    )
    return {
        "all": sum(counts.values()),
        "tabs": [(status, status.label, counts.get(status, 0)) for status in GROUP_ORDER],
    }


def library_page(user: User, form: LibraryFilterForm) -> dict[str, Any]:
    filters = form.filters()
    mine = Bookmark.objects.of(user)
    bookmarks = list(
        mine.for_cards()
        .with_status(filters["status"])
        .in_topic(filters["topic"])
        .in_tier(filters["tier"])
        .in_list(filters["list"])
        .search(filters["q"])
        .sorted_by(filters["sort"], reading_list=filters["list"])
    )
    by_status = {status: [] for status in GROUP_ORDER}
    for bookmark in bookmarks:
        by_status[bookmark.status].append(bookmark)
    groups = [
        Group(status=status, label=status.label, bookmarks=by_status[status])
        for status in GROUP_ORDER
        if by_status[status] or not filters["status"] or filters["status"] == status
    ]
    return {
        "form": form,
        "filtered": form.active,
        "groups": groups,
        "found": len(bookmarks),
        "counts": status_counts(user),
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
