"""Types the tests' hints share: what the common fixtures return, and stub-only names."""

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, TypedDict

from catalog.models import ReadingList, Source, Tier, Topic

if TYPE_CHECKING:
    # The test client's response: django-stubs add `context`, `templates` and `json()` to it.
    from django.test.client import _MonkeyPatchedWSGIResponse as Response
else:
    from django.http import HttpResponse as Response

__all__ = ["Grow", "Response", "SmallCatalog", "Tiers", "found", "present"]

Tiers = dict[str, Tier]
Grow = Callable[[int], list[Source]]


class SmallCatalog(TypedDict):
    list: ReadingList
    path: list[Source]
    flash: Source
    topics: list[Topic]


def found[T: (str, bytes)](match: re.Match[T] | None) -> re.Match[T]:
    """The match a test expects to find: failing here says the page lacked it."""
    assert match is not None, "expected a match"
    return match


def present[T](value: T | None) -> T:
    """The row (or value) a test expects to be there: `.first()` of a query that has it."""
    assert value is not None, "expected a value"
    return value
