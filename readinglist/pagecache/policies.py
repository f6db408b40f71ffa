"""The one line a view opts in with, and the key its pages are stored under.

    @page_cache(shared=True)                          # anonymous visitors share one copy
    @page_cache(shared=True, reader=True, team=True)  # ... and each reader keeps their own,
                                                      # which shows teammates' data
    @page_cache(reader=True, params=FilterForm.base_fields)

A view may declare `shared` only if, for an anonymous visitor, its output depends on the URL,
the host, the HX-Request and HX-Target headers and catalog data alone; `reader` only if, for a
reader, it depends on those, the reader's own rows, teammates' data (with `team`) and today's
date. Pages must not show relative times ("5 minutes ago"); an output that expires within the
day calls dont_store(request).

`params` names the query parameters the view reads. A request with any other parameter is
served but neither looked up nor stored, so made-up parameters cannot multiply the copies of a
page; the known ones are keyed in sorted order.
"""

import hashlib
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest

from .release import release

POLICY_ATTRIBUTE = "page_cache_policy"
# Set on the request (by dont_store) to keep its response out of the cache.
NO_STORE_ATTRIBUTE = "_page_cache_no_store"
PAGE_KEY_PREFIX = "page:shared:"
READER_PAGE_KEY_PREFIX = "page:reader:"


@dataclass(frozen=True)
class PagePolicy:
    shared: bool
    reader: bool
    team: bool
    params: frozenset[str]


def page_cache[V: Callable](
    *,
    shared: bool = False,
    reader: bool = False,
    team: bool = False,
    params: Iterable[str] = (),
) -> Callable[[V], V]:
    """Declare the view's page cache policy (see the module docstring). Put it outermost, or
    under decorators that copy attributes (functools.wraps does)."""
    if team and not reader:
        raise ImproperlyConfigured("page_cache(team=True) needs reader=True")
    if not (shared or reader):
        raise ImproperlyConfigured("page_cache() needs shared=True or reader=True")
    policy = PagePolicy(shared, reader, team, frozenset(params))

    def declare(view: V) -> V:
        setattr(view, POLICY_ATTRIBUTE, policy)
        return view

    return declare


def policy_of(view: Callable) -> PagePolicy | None:
    return getattr(view, POLICY_ATTRIBUTE, None)


def dont_store(request: HttpRequest) -> None:
    """Keep this response out of the page cache: it shows something that expires by itself."""
    setattr(request, NO_STORE_ATTRIBUTE, True)


def known_query(request: HttpRequest, policy: PagePolicy) -> list | None:
    """The query string's known parameters in sorted order, or None if it has another one."""
    query = request.GET
    if not set(query) <= policy.params:
        return None
    return sorted(query.lists())


def page_key(request: HttpRequest, query: list, reader: tuple[str, str] | None) -> str:
    parts = [
        release(),
        request.get_host(),
        request.headers.get("HX-Request", ""),
        request.headers.get("HX-Target", ""),
        request.path,
        query,
    ]
    prefix = PAGE_KEY_PREFIX
    if reader is not None:
        prefix = READER_PAGE_KEY_PREFIX
        parts = [*reader, settings.SECRET_KEY, *parts]
    # Hashed: URLs can be longer than cache backends allow keys to be (and no secret is stored).
    return prefix + hashlib.sha256(json.dumps(parts).encode()).hexdigest()
