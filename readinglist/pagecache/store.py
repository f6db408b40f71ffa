"""Where pages are kept: the evictable `pages` cache, fronted by a copy in each process.

The `pages` alias is a store of its own (its own Redis keys or database table, with its own
size cap), apart from `default`, which holds sessions, rate limits and versions: a flood of
distinct URLs can evict pages, never those. Each process also keeps the pages it served recently
in memory, under the versions they were rendered from, so a hit costs one small version read
instead of fetching and unpickling the whole page; a copy kept for older versions is never
served, so it can be no staler than the shared one.
"""

import threading
from collections import OrderedDict

from django.conf import settings
from django.core.cache import caches
from django.http import HttpResponse

from .failsafe import guarded

PAGES_ALIAS = "pages"
PAGE_TIMEOUT = 60 * 60
# (status, headers, pieces, slots): see splice.cut.
Page = tuple[int, list[tuple[str, str]], tuple[bytes, ...], bytes]


class ProcessPages:
    """A byte-bounded LRU of (versions, page) by page key, for this process alone."""

    def __init__(self) -> None:
        self._pages: OrderedDict = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()  # gthread workers share it between threads

    @staticmethod
    def _limit() -> int:
        return settings.CATALOG_PAGE_MEMORY_BYTES

    def get(self, key: str, version: tuple) -> Page | None:
        with self._lock:
            found = self._pages.get(key)
            if found is None or found[0] != version:
                return None
            self._pages.move_to_end(key)
            return found[1]

    def put(self, key: str, version: tuple, page: Page) -> None:
        size = sum(map(len, page[2]))
        limit = self._limit()
        if size > limit:
            return
        with self._lock:
            old = self._pages.pop(key, None)
            if old is not None:
                self._bytes -= old[2]
            self._pages[key] = (version, page, size)
            self._bytes += size
            while self._bytes > limit:
                _, (_, _, dropped) = self._pages.popitem(last=False)
                self._bytes -= dropped

    def clear(self) -> None:
        with self._lock:
            self._pages.clear()
            self._bytes = 0


process_pages = ProcessPages()


def lookup(key: str, version: tuple) -> Page | None:
    """The page stored under `key` for `version`, or None (also when the store is down)."""
    page = process_pages.get(key, version)
    if page is None:
        stored = guarded("page read", lambda: caches[PAGES_ALIAS].get(key), None)
        if stored is not None and stored[0] == version:
            page = stored[1]
            process_pages.put(key, version, page)
    return page


def store(key: str, version: tuple, response: HttpResponse, cut: tuple) -> None:
    # Cookies are set afresh for each visitor by the middleware further out.
    headers = [
        (name, value)
        for name, value in response.items()
        if name.lower() not in {"set-cookie", "content-length", "x-page-cache"}
    ]
    page = (response.status_code, headers, *cut)
    guarded("page write", lambda: caches[PAGES_ALIAS].set(key, (version, page), PAGE_TIMEOUT), None)
    process_pages.put(key, version, page)
