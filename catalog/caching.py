"""Whole-page cache for anonymous readers, keyed by a catalog version.

Anonymous catalog pages are the same for everyone until a maintainer edits the catalog, so they
are rendered once per URL and catalog version and then served from the shared cache. Every save,
delete or many-to-many change of a catalog model replaces the version, so no page outlives the
edit that changed it (no stale pages, no timeout to tune). Signed-in readers always get a fresh
render: their pages show their own bookmarks and notes.

Two per-visitor values live inside the HTML and are swapped on the way out: the CSRF token (each
visitor keeps their own CSRF cookie) and the CSP nonce (each response has its own policy). A page
is stored already cut at those places, so a hit joins the pieces around this visitor's values
instead of searching the whole HTML again (a list page holds about a hundred forms).

Each process also keeps the pages it served recently in its own memory, under the version they
were rendered from. A hit then costs one small shared-cache read (the current version) instead of
fetching and unpickling the whole page; a page kept for an older version is never served, so this
copy can be no staler than the shared one.
"""

import hashlib
import re
import threading
import uuid
from collections import OrderedDict

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import m2m_changed, post_delete, post_save
from django.http import HttpResponse
from django.middleware.csrf import get_token
from django.utils.http import split_header_value

# Views whose anonymous GET responses may be shared. A view belongs here only if, for an
# anonymous visitor, its output depends on the URL, the HX-Request header and catalog data alone.
CACHED_VIEWS = {
    "catalog:home",
    "catalog:source-list",
    "catalog:source-detail",
    "catalog:topic-detail",
    "catalog:tier-detail",
    "catalog:list-detail",
}
# Changes to any model of these apps change what anonymous pages show.
VERSIONED_APPS = {"catalog"}
# The request headers a cached view may vary on besides Cookie (covered by "anonymous only").
ALLOWED_VARY = {"cookie", "hx-request", "accept-encoding"}

VERSION_KEY = "catalog:version"
# "page2": pages are stored cut at their per-visitor values (see _cut), a layout the first
# format's entries do not have.
PAGE_KEY_PREFIX = "catalog:page2:"
PAGE_TIMEOUT = 60 * 60
# Bytes of pages each process keeps in its own memory (CATALOG_PAGE_MEMORY_BYTES overrides;
# 0 turns the layer off). A catalog page is 20-150 kB.
PAGE_MEMORY_BYTES = 32 * 1024 * 1024

# The per-visitor values in a rendered page: the CSRF token in forms and in htmx's headers, and
# the CSP nonce. The lookbehinds keep the surrounding markup in the stored pieces.
_SLOTS_RE = re.compile(
    rb'(?:(?<="x-csrftoken": ")|(?<=name="csrfmiddlewaretoken" value="))[A-Za-z0-9]{32,64}(?=")'
    rb'|(?<=nonce=")[^"]*(?=")'
)
_CSRF, _NONCE = 0, 1


def catalog_version():
    version = cache.get(VERSION_KEY)
    if version is None:
        version = uuid.uuid4().hex
        # add(): when two processes race, both end up using the one that was stored first.
        if not cache.add(VERSION_KEY, version, timeout=None):
            version = cache.get(VERSION_KEY, version)
    return version


def bump_catalog_version():
    """Invalidate every cached page. Call it after writes that send no signals (bulk updates)."""
    # A fresh random value rather than a counter: a counter could repeat after the cache is
    # cleared and bring back pages rendered from older data.
    cache.set(VERSION_KEY, uuid.uuid4().hex, timeout=None)


def _bump_if_versioned(sender, **kwargs):
    model = getattr(sender, "_meta", None)
    if model is not None and model.app_label in VERSIONED_APPS:
        # After commit: a page rendered before then could otherwise be stored under the new
        # version while still showing the old rows.
        transaction.on_commit(bump_catalog_version)


def connect_signals():
    for signal in (post_save, post_delete, m2m_changed):
        signal.connect(_bump_if_versioned, dispatch_uid=f"catalog-version-{id(signal)}")


def _page_key(request):
    # Hashed: URLs can be longer than cache backends allow keys to be.
    url = f"{request.headers.get('HX-Request', '')}:{request.get_full_path()}"
    return PAGE_KEY_PREFIX + hashlib.sha256(url.encode()).hexdigest()


class _ProcessPages:
    """A byte-bounded LRU of (version, page) by page key, for this process alone."""

    def __init__(self):
        self._pages = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()  # gthread workers share it between threads

    @staticmethod
    def _limit():
        return getattr(settings, "CATALOG_PAGE_MEMORY_BYTES", PAGE_MEMORY_BYTES)

    def get(self, key, version):
        with self._lock:
            found = self._pages.get(key)
            if found is None or found[0] != version:
                return None
            self._pages.move_to_end(key)
            return found[1]

    def put(self, key, version, page):
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

    def clear(self):
        with self._lock:
            self._pages.clear()
            self._bytes = 0


process_pages = _ProcessPages()


def _lookup(key):
    """The current catalog version and the page stored for it.

    A page is stored with the version it was rendered from and served only while that is still
    the current version. One shared-cache read when this process has the page in memory, two
    when another process rendered it.
    """
    version = cache.get(VERSION_KEY) or catalog_version()
    page = process_pages.get(key, version)
    if page is None:
        stored = cache.get(key)
        if stored is not None and stored[0] == version:
            page = stored[1]
            process_pages.put(key, version, page)
    return version, page


def _cacheable_request(request):
    match = request.resolver_match
    if request.method != "GET" or match is None:
        return False
    if match.view_name not in CACHED_VIEWS or request.user.is_authenticated:
        return False
    # A visitor with flash messages waiting must see them, and must not share them.
    storage = getattr(request, "_messages", None)
    return not (storage is not None and len(storage))


def _cacheable_response(request, response):
    if request.method != "GET" or response.status_code != 200 or response.streaming:
        return False
    if response.has_header("Cache-Control") and "private" in response["Cache-Control"]:
        return False
    vary = {h.lower() for h in split_header_value(response.get("Vary", ""))}
    return vary <= ALLOWED_VARY


def _cut(content):
    """Split a page at its per-visitor values: (pieces, slots), len(pieces) == len(slots) + 1."""
    pieces, slots, start = [], [], 0
    for match in _SLOTS_RE.finditer(content):
        pieces.append(content[start : match.start()])
        slots.append(_NONCE if content[match.start() - 7 : match.start()] == b'nonce="' else _CSRF)
        start = match.end()
    pieces.append(content[start:])
    return tuple(pieces), bytes(slots)


def _personalise(request, pieces, slots):
    """The stored page with this visitor's CSRF token and CSP nonce put back in."""
    if not slots:
        return pieces[0]
    values = [b"", b""]
    if _CSRF in slots:
        values[_CSRF] = get_token(request).encode()
    if _NONCE in slots:
        nonce = getattr(request, "_csp_nonce", None)
        # Without the CSP middleware there is no nonce to match: the attribute is left empty.
        values[_NONCE] = str(nonce).encode() if nonce is not None else b""
    parts = [pieces[0]]
    for slot, piece in zip(slots, pieces[1:], strict=True):
        parts.append(values[slot])
        parts.append(piece)
    return b"".join(parts)


class AnonymousPageCacheMiddleware:
    """Serve and store anonymous catalog pages (see the module docstring).

    Listed after the session, auth, messages, CSRF and CSP middleware, so it can tell who is
    asking, and those still add each visitor's own cookies and headers to a cached response.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        key = getattr(request, "_catalog_page_key", None)
        if key is not None and not response.has_header("X-Page-Cache"):
            if _cacheable_response(request, response):
                _store(key, request._catalog_version, response)
            response["X-Page-Cache"] = "miss"
        return response

    def process_view(self, request, view_func, view_args, view_kwargs):
        if not getattr(settings, "CATALOG_PAGE_CACHE", True) or not _cacheable_request(request):
            return None
        request._catalog_page_key = _page_key(request)
        request._catalog_version, cached = _lookup(request._catalog_page_key)
        if cached is None:
            return None
        status, headers, pieces, slots = cached
        response = HttpResponse(_personalise(request, pieces, slots), status=status)
        for name, value in headers:
            response[name] = value
        response["X-Page-Cache"] = "hit"
        return response


def _store(key, version, response):
    # Cookies are set afresh for each visitor by the middleware above this one.
    headers = [
        (name, value)
        for name, value in response.items()
        if name.lower() not in {"set-cookie", "content-length"}
    ]
    page = (response.status_code, headers, *_cut(response.content))
    cache.set(key, (version, page), PAGE_TIMEOUT)
    process_pages.put(key, version, page)
