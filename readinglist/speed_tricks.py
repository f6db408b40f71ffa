"""Switching a speed trick off, for the benchmark that times each one (bench_tricks, and
docs/speed.md). Each app that has tricks names them in its own `speed_tricks` module, as
context managers; those, and nothing private, are what the benchmark uses.
"""

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

from .templatetags import site_urls


@contextmanager
def swapped(owner: object, name: str, value: object) -> Iterator[None]:
    """`owner.name` is `value` inside the block. A name `owner` lacks fails at once, so a trick
    renamed without its switch fails the quick test that enters every switch."""
    if not hasattr(owner, name):
        raise AttributeError(f"{owner!r} has no {name!r} to swap")
    old = owner.__dict__[name] if isinstance(owner, type) else getattr(owner, name)
    setattr(owner, name, value)
    try:
        yield
    finally:
        setattr(owner, name, old)


def uncached(function: Callable[..., Any]) -> Callable[..., Any]:
    """The function an lru_cache wraps."""
    return function.__wrapped__  # type: ignore[attr-defined]  # lru_cache's wrapper is untyped here


def without_url_cache() -> AbstractContextManager[None]:
    """Every `{% fixed_url %}` and `{% slug_url %}` reversed again."""
    return swapped(site_urls, "_reversed", uncached(site_urls._reversed))
