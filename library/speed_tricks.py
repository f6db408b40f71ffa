"""The library's speed tricks, each switchable off by name for bench_tricks (docs/speed.md)."""

from collections.abc import Callable
from contextlib import AbstractContextManager

from django.http import HttpRequest

from readinglist.speed_tricks import swapped, uncached

from . import reading as library_reading
from .templatetags import reading


class _Forgetful:
    """A card cache that remembers nothing: every card is rendered from its template."""

    def get(self, key: object, render: Callable[[], str]) -> str:
        return render()


def without_card_cache() -> AbstractContextManager[None]:
    return swapped(reading, "remembered_cards", _Forgetful())


def without_control_cache() -> AbstractContextManager[None]:
    return swapped(reading, "control_html", uncached(reading.control_html))


def library_read_per_card() -> AbstractContextManager[None]:
    """The reader's states read for every card instead of once a request."""

    def per_call(request: HttpRequest | None) -> dict[int, str]:
        return library_reading.states_for(request.user) if request else {}

    return swapped(library_reading, "request_states", per_call)
