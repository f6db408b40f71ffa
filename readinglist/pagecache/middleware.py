"""Serve and store the pages of views that declared a policy (policies.page_cache).

Listed after the session, auth, messages, CSRF and CSP middleware, so it can tell who is asking,
and those still add each visitor's own cookies and headers to a cached response.

Signed-in readers' pages are kept per reader and never shared: the key holds the reader's id
and session auth hash. The versions are read in one round trip before the view runs and before
the reader's user row is loaded (request.user is lazy), so a page rendered from older rows can
never be stored under newer versions.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.base import SessionBase
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.utils.functional import LazyObject, empty
from django.utils.http import split_header_value

from readinglist.metrics import PAGE_CACHE

from .policies import NO_STORE_ATTRIBUTE, PagePolicy, known_query, page_key, policy_of
from .registry import teams_of
from .splice import PLACEHOLDERS_ATTRIBUTE, cut, personalise
from .store import lookup, store
from .versions import (
    READER_VERSION_KEY,
    READERS_EPOCH_KEY,
    TEAM_VERSION_KEY,
    VERSION_KEY,
    page_versions,
)

# The request headers a cached view may vary on besides Cookie (anonymous: covered by "anonymous
# only"; readers: covered by the reader's id in the key).
ALLOWED_VARY = {"cookie", "hx-request", "hx-target", "accept-encoding"}
# Where process_view leaves a miss's Pending for the response to be stored under.
PENDING_ATTRIBUTE = "_page_cache"


@dataclass(frozen=True)
class Pending:
    key: str
    versions: tuple[str, ...]
    reader: tuple[str, str] | None


def _messages_waiting(request: HttpRequest) -> bool:
    # A visitor with flash messages waiting must see them, and must not share them.
    storage = getattr(request, "_messages", None)
    return storage is not None and bool(len(storage))


def _user_loaded(request: HttpRequest) -> bool:
    lazy = request.__dict__.get("user")
    return not isinstance(lazy, LazyObject) or lazy._wrapped is not empty


def _pending(request: HttpRequest, policy: PagePolicy) -> Pending | None:
    """Key and versions for a request the cache may answer or store, else None."""
    query = known_query(request, policy)
    if query is None or _messages_waiting(request):
        return None
    session: SessionBase | None = getattr(request, "session", None)
    user_id = session.get(SESSION_KEY) if session is not None else None
    if session is None or user_id is None:
        if not policy.shared or request.user.is_authenticated:
            return None
        versions = page_versions([VERSION_KEY])
        return Pending(page_key(request, query, None), versions, None) if versions else None
    if not policy.reader or _user_loaded(request):
        return None
    keys = [VERSION_KEY, READERS_EPOCH_KEY, READER_VERSION_KEY.format(user_id)]
    if policy.team:
        keys.append(TEAM_VERSION_KEY)
        versions = page_versions(keys, lambda: teams_of(user_id), str(user_id))
    else:
        versions = page_versions(keys)
    if versions is None:
        return None
    # A hit does not load the user row at all: the (server-side) session names the reader, and
    # its auth hash, derived from their password and SECRET_KEY (both in the key), is the one
    # authentication accepted when the page was stored (see _authenticated_as). A password
    # change, a deactivation or a deletion saves the user row, which replaces the reader's
    # version, so a session that no longer authenticates finds no page.
    reader = (str(user_id), session.get(HASH_SESSION_KEY, ""))
    return Pending(page_key(request, query, reader), versions, reader)


def _authenticated_as(request: HttpRequest, reader: tuple[str, str]) -> bool:
    """Whether the page was rendered for the reader the session named, its hash accepted."""
    user = request.user
    user_id, session_hash = reader
    return (
        user.is_authenticated
        and str(user.pk) == user_id
        and request.session.get(HASH_SESSION_KEY, "") == session_hash
    )


def _cacheable_response(request: HttpRequest, response: HttpResponse, reader: bool) -> bool:
    if response.status_code != 200 or getattr(request, NO_STORE_ATTRIBUTE, False):
        return False
    # Cookies set by the view answer this visitor alone.
    if response.cookies:
        return False
    cache_control = response.get("Cache-Control", "")
    # "private" (a browser-only copy) fits a page kept for one reader, never a shared one.
    if "no-store" in cache_control or ("private" in cache_control and not reader):
        return False
    # Messages shown or added while rendering belong to this response alone.
    storage = getattr(request, "_messages", None)
    if storage is not None and (getattr(storage, "used", False) or len(storage)):
        return False
    vary = {h.lower() for h in split_header_value(response.get("Vary", ""))}
    return vary <= ALLOWED_VARY


class PageCacheMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        pending: Pending | None = getattr(request, PENDING_ATTRIBUTE, None)
        if pending is None or response.has_header("X-Page-Cache") or response.streaming:
            return response
        pieces, slots = cut(response.content)
        if _cacheable_response(request, response, bool(pending.reader)) and (
            pending.reader is None or _authenticated_as(request, pending.reader)
        ):
            store(pending.key, pending.versions, response, (pieces, slots))
        if slots:
            response.content = personalise(request, pieces, slots)
            if response.has_header("Content-Length"):
                response["Content-Length"] = str(len(response.content))
        response["X-Page-Cache"] = "miss"
        PAGE_CACHE.labels(result="miss").inc()
        return response

    def process_view(
        self,
        request: HttpRequest,
        view_func: Callable[..., HttpResponseBase],
        view_args: tuple[Any, ...],
        view_kwargs: dict[str, Any],
    ) -> HttpResponse | None:
        if not settings.CATALOG_PAGE_CACHE or request.method != "GET":
            return None
        policy = policy_of(view_func)
        pending = _pending(request, policy) if policy is not None else None
        if pending is None:
            return None
        cached = lookup(pending.key, pending.versions)
        if cached is None:
            setattr(request, PENDING_ATTRIBUTE, pending)
            setattr(request, PLACEHOLDERS_ATTRIBUTE, True)
            return None
        status, headers, pieces, slots = cached
        response = HttpResponse(personalise(request, pieces, slots), status=status)
        for name, value in headers:
            response[name] = value
        response["X-Page-Cache"] = "hit"
        PAGE_CACHE.labels(result="hit").inc()
        return response
