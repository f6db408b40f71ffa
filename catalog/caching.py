"""Whole-page cache for anonymous readers, keyed by a catalog version.

Anonymous catalog pages are the same for everyone until a maintainer edits the catalog, so they
are rendered once per URL and catalog version and then served from the shared cache. Every save,
delete or many-to-many change of a catalog model replaces the version, so no page outlives the
edit that changed it (no stale pages, no timeout to tune). Signed-in readers always get a fresh
render: their pages show their own bookmarks and notes.

Two per-visitor values live inside the HTML and are swapped on the way out: the CSRF token (each
visitor keeps their own CSRF cookie) and the CSP nonce (each response has its own policy).
"""

import hashlib
import re
import uuid

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
PAGE_TIMEOUT = 60 * 60

_CSRF_RE = re.compile(rb'("x-csrftoken": "|name="csrfmiddlewaretoken" value=")[A-Za-z0-9]{32,64}"')
_NONCE_RE = re.compile(rb'nonce="[^"]*"')


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
    return f"catalog:page:{hashlib.sha256(url.encode()).hexdigest()}"


def _lookup(key):
    """The current catalog version and the page stored for it, in one cache round trip.

    A page is stored with the version it was rendered from and served only while that is still
    the current version.
    """
    found = cache.get_many([VERSION_KEY, key])
    version = found.get(VERSION_KEY) or catalog_version()
    stored = found.get(key)
    if stored is not None and stored[0] == version:
        return version, stored[1]
    return version, None


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


def _personalise(request, content):
    token = get_token(request).encode()
    content = _CSRF_RE.sub(lambda m: m.group(1) + token + b'"', content)
    nonce = getattr(request, "_csp_nonce", None)
    if nonce is not None:
        content = _NONCE_RE.sub(b'nonce="' + str(nonce).encode() + b'"', content)
    return content


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
        status, headers, content = cached
        response = HttpResponse(_personalise(request, content), status=status)
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
    cache.set(key, (version, (response.status_code, headers, response.content)), PAGE_TIMEOUT)
