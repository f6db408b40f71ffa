"""Whole-page cache, keyed by versions: shared pages for anonymous visitors, and each signed-in
reader's own pages.

Anonymous catalog pages are the same for everyone until a maintainer edits the catalog, so they
are rendered once per URL and catalog version and then served from the shared cache. Every save,
delete or many-to-many change of a catalog model replaces the version, so no page outlives the
edit that changed it (no stale pages, no timeout to tune).

Signed-in readers see their own bookmarks and notes, and on some pages their teammates' (who
finished a source, who is reading it, team notes), so their pages are kept per reader and never
shared: the key holds the reader's id. A reader's page is served only while every version it
was rendered under is still current:
  - the catalog version (as above);
  - the reader's own version, replaced by any change to a row of theirs (their user row, their
    bookmarks, notes and email addresses) and by the writes that bypass signals
    (mark_changes_seen, bulk_apply);
  - on pages that show teammates' data (TEAM_VIEWS), the team version, replaced by any change a
    teammate could see (bookmarks, non-private notes, display names);
  - the readers' epoch, replaced when a change cannot be tied to one reader (groups,
    permissions, an unknown model): then every reader's pages are dropped;
  - today's date, because pages show ages in days ("N days old"): no page outlives its day.
All of them are read in one cache round trip, before the view runs (and before the reader's user
row is loaded), so a page rendered from older rows can never be stored under a newer version.
Versions are replaced after commit, so no page rendered before the commit is stored under the
new one either.

Two per-visitor values live inside the HTML and are swapped on the way out: the CSRF token (each
visitor keeps their own CSRF cookie) and the CSP nonce (each response has its own policy). A page
is stored already cut at those places, so a hit joins the pieces around this visitor's values
instead of searching the whole HTML again (a list page holds about a hundred forms).

Each process also keeps the pages it served recently in its own memory, under the version they
were rendered from. A hit then costs one small shared-cache read (the current versions) instead
of fetching and unpickling the whole page; a page kept for an older version is never served, so
this copy can be no staler than the shared one.
"""

import functools
import hashlib
import json
import re
import threading
import uuid
from collections import OrderedDict

from django.apps import apps as django_apps
from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import m2m_changed, post_delete, post_save
from django.http import HttpResponse
from django.middleware.csrf import get_token
from django.utils import timezone
from django.utils.functional import LazyObject, empty
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
    "catalog:topic-index",
    "catalog:tier-index",
    "catalog:list-index",
}
# Views whose GET responses are kept per signed-in reader. A view belongs here only if, for a
# reader, its output depends on the URL, the HX-Request and HX-Target headers, catalog data, the
# reader's own rows, their teammates' bookmarks, team notes and names (TEAM_VIEWS only) and
# today's date. Checked for each: no relative times ("5 minutes ago"; notes and bookmarks show
# absolute dates), and the one output that expires within the day, the "Undo" of a note
# deleted seconds ago on a source page, marks its response not to be stored (dont_store).
READER_VIEWS = {
    "catalog:home",  # changes since the last visit: catalog + the reader's last_seen_changes_at
    "catalog:source-list",
    "catalog:source-detail",  # team activity and team notes
    "catalog:topic-detail",
    "catalog:tier-detail",  # the Start-here path counts who finished each step
    "catalog:list-detail",  # who finished each entry
    "library:index",
    "notes:mine",
}
# Reader pages that show teammates' data: their versions include the team version.
TEAM_VIEWS = {
    "catalog:home",
    "catalog:source-detail",
    "catalog:tier-detail",
    "catalog:list-detail",
}
# Changes to any model of these apps change what anonymous pages show.
VERSIONED_APPS = {"catalog"}
# Changes to models of these apps show on no page (sessions are written on most requests; the
# admin's log, content types and the site's domain, used in emails, are not displayed). Every
# other app's change is a reader's.
UNVERSIONED_APPS = {"sessions", "admin", "contenttypes", "sites"}
# The user fields a teammate sees (public_name): a change to another one concerns its reader.
TEAM_VISIBLE_USER_FIELDS = {"display_name", "email"}
# The request headers a cached view may vary on besides Cookie (anonymous: covered by "anonymous
# only"; readers: covered by the reader's id in the key).
ALLOWED_VARY = {"cookie", "hx-request", "hx-target", "accept-encoding"}

VERSION_KEY = "catalog:version"
READERS_EPOCH_KEY = "readers:epoch"
TEAM_VERSION_KEY = "readers:team-version"
READER_VERSION_KEY = "reader:version:{}"
# "page3": keys include HX-Target and versions today's date, which "page2" entries do not.
PAGE_KEY_PREFIX = "catalog:page3:"
READER_PAGE_KEY_PREFIX = "reader:page1:"
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


def _current(key):
    """The version stored under `key`, created (a random value) when missing."""
    version = uuid.uuid4().hex
    # add(): when two processes race, both end up using the one that was stored first.
    if not cache.add(key, version, timeout=None):
        version = cache.get(key, version)
    return version


def catalog_version():
    return cache.get(VERSION_KEY) or _current(VERSION_KEY)


def _replace(*keys):
    # Fresh random values rather than counters: a counter could repeat after the cache is
    # cleared and bring back pages rendered from older data.
    cache.set_many({key: uuid.uuid4().hex for key in keys}, timeout=None)


def bump_catalog_version():
    """Invalidate every cached page. Call it after writes that send no signals (bulk updates)."""
    _replace(VERSION_KEY)


def bump_reader_version(user_id):
    """Invalidate one reader's pages. Call it after writes to their rows that send no signals."""
    _replace(READER_VERSION_KEY.format(user_id))


def bump_team_version():
    """Invalidate every reader's pages that show teammates' data."""
    _replace(TEAM_VERSION_KEY)


def bump_all_pages():
    """Invalidate every cached page, anonymous and signed-in (restores, raw SQL on any table)."""
    _replace(VERSION_KEY, READERS_EPOCH_KEY, TEAM_VERSION_KEY)


def _page_versions(keys):
    """Today's date and the current value of each version key, in one cache round trip."""
    found = cache.get_many(keys)
    # The date the templates count ages from (timezone.localdate, UTC here).
    return (timezone.localdate().isoformat(), *(found.get(key) or _current(key) for key in keys))


def _bump_if_versioned(sender, **kwargs):
    model = getattr(sender, "_meta", None)
    if model is not None and model.app_label in VERSIONED_APPS:
        # After commit: a page rendered before then could otherwise be stored under the new
        # version while still showing the old rows.
        transaction.on_commit(bump_catalog_version, using=kwargs.get("using"))


@functools.cache
def _owner_attname(model):
    """The column naming the reader a row belongs to (a `user` foreign key), or None."""
    User = get_user_model()
    for field in model._meta.concrete_fields:
        if field.name == "user" and field.is_relation and field.related_model is User:
            return field.attname
    return None


def _readers_changed(sender, instance, kwargs):
    """Whose pages a change to `instance` may show on: (reader ids, team), or (None, True)
    when it cannot be tied to one reader (every reader's pages then)."""
    User = get_user_model()
    if isinstance(instance, User):
        fields = kwargs.get("update_fields")
        # A deleted reader's name and bookmarks leave their teammates' pages too; last_login
        # and last_seen_changes_at (update_fields saves) show on the reader's own pages only.
        team = (
            kwargs.get("signal") is post_delete
            or fields is None
            or bool(set(fields) & TEAM_VISIBLE_USER_FIELDS)
        )
        return {instance.pk}, team
    attname = _owner_attname(sender)
    owner = getattr(instance, attname, None) if attname else None
    if owner is None:
        return None, True
    # Every change is one a teammate could see (a bookmark in team_finished/team_activity, a
    # team note, a note changed from or to team, an email address behind a public name), except
    # a new private note, which only its author sees. (An edited private note may have been a
    # team note a moment ago: it bumps the team version too.)
    private_note = (
        sender._meta.label_lower == "notes.note"
        and kwargs.get("created")
        and instance.visibility == "private"
    )
    return {owner}, not private_note


def _schedule_bumps(readers, team, using):
    def bump():
        keys = [TEAM_VERSION_KEY] if team else []
        if readers is None:
            keys.append(READERS_EPOCH_KEY)
        else:
            keys += [READER_VERSION_KEY.format(pk) for pk in readers]
        if keys:
            _replace(*keys)

    # After commit, for the same reason as the catalog version.
    transaction.on_commit(bump, using=using)


def _bump_readers(sender, instance=None, **kwargs):
    model = getattr(sender, "_meta", None)
    if model is None or model.app_label in VERSIONED_APPS | UNVERSIONED_APPS:
        return
    if model.apps is not django_apps:
        # A historical model: a migration writing rows, possibly before the cache table exists
        # (migrate runs before createcachetable). A data migration that changes what readers
        # see calls bump_all_pages() itself.
        return
    using = kwargs.get("using")
    if kwargs.get("signal") is m2m_changed:
        if not kwargs["action"].startswith("post_"):
            return
        User = get_user_model()
        if isinstance(instance, User):  # user.groups / user.user_permissions
            _schedule_bumps({instance.pk}, False, using)
        elif kwargs.get("model") is User and kwargs.get("pk_set"):  # group.user_set
            _schedule_bumps(set(kwargs["pk_set"]), False, using)
        else:
            _schedule_bumps(None, True, using)
        return
    readers, team = _readers_changed(sender, instance, kwargs)
    _schedule_bumps(readers, team, using)


def connect_signals():
    for signal in (post_save, post_delete, m2m_changed):
        signal.connect(_bump_if_versioned, dispatch_uid=f"catalog-version-{id(signal)}")
        signal.connect(_bump_readers, dispatch_uid=f"reader-version-{id(signal)}")


def dont_store(request):
    """Keep this response out of the page cache: it shows something that expires by itself."""
    request._page_cache_no_store = True


def _page_key(request, reader=None):
    parts = [
        request.headers.get("HX-Request", ""),
        request.headers.get("HX-Target", ""),
        request.get_full_path(),
    ]
    prefix = PAGE_KEY_PREFIX
    if reader is not None:
        prefix = READER_PAGE_KEY_PREFIX
        parts = [*reader, settings.SECRET_KEY, *parts]
    # Hashed: URLs can be longer than cache backends allow keys to be (and no secret is stored).
    return prefix + hashlib.sha256(json.dumps(parts).encode()).hexdigest()


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


def _lookup(key, version):
    """The page stored under `key` for `version`, or None.

    A page is stored with the versions it was rendered from and served only while they are all
    still current. No shared-cache read when this process has the page in memory, one when
    another process rendered it.
    """
    page = process_pages.get(key, version)
    if page is None:
        stored = cache.get(key)
        if stored is not None and stored[0] == version:
            page = stored[1]
            process_pages.put(key, version, page)
    return page


def _messages_waiting(request):
    # A visitor with flash messages waiting must see them, and must not share them.
    storage = getattr(request, "_messages", None)
    return storage is not None and bool(len(storage))


def _user_loaded(request):
    lazy = request.__dict__.get("user")
    return not isinstance(lazy, LazyObject) or lazy._wrapped is not empty


def _cacheable_request(request):
    """(key, versions, reader) for a request the cache may answer or store, else None."""
    match = request.resolver_match
    if request.method != "GET" or match is None:
        return None
    view = match.view_name
    if view not in CACHED_VIEWS and view not in READER_VIEWS:
        return None
    if _messages_waiting(request):
        return None
    session = getattr(request, "session", None)
    user_id = session.get(SESSION_KEY) if session is not None else None
    if user_id is None:
        if view not in CACHED_VIEWS or request.user.is_authenticated:
            return None
        return _page_key(request), _page_versions([VERSION_KEY]), False
    # The versions are read before the reader's user row is loaded (request.user is lazy), like
    # every other row the page shows: "changes since your last visit" depends on that row.
    if view not in READER_VIEWS or _user_loaded(request):
        return None
    keys = [VERSION_KEY, READERS_EPOCH_KEY, READER_VERSION_KEY.format(user_id)]
    if view in TEAM_VIEWS:
        keys.append(TEAM_VERSION_KEY)
    versions = _page_versions(keys)
    # A hit does not load the user row at all: the (server-side) session names the reader, and
    # its auth hash, derived from their password and SECRET_KEY (both in the key), is the one
    # authentication accepted when the page was stored (see _authenticated_as). A password change, a
    # deactivation or a deletion saves the user row, which replaces the reader's version, so a
    # session that no longer authenticates finds no page and goes through the full check.
    reader = (str(user_id), session.get(HASH_SESSION_KEY, ""))
    return _page_key(request, reader), versions, reader


def _authenticated_as(request, reader):
    """Whether the page was rendered for the reader the session named, its hash accepted (the
    view loaded the user: an invalid session hash made it anonymous and flushed the session)."""
    user = request.user
    user_id, session_hash = reader
    return (
        user.is_authenticated
        and str(user.pk) == user_id
        and request.session.get(HASH_SESSION_KEY, "") == session_hash
    )


def _cacheable_response(request, response, reader=False):
    if request.method != "GET" or response.status_code != 200 or response.streaming:
        return False
    if getattr(request, "_page_cache_no_store", False):
        return False
    # Cookies set by the view answer this visitor alone (the CSRF and session cookies are set
    # further out, after this middleware, and again on every hit).
    if response.cookies:
        return False
    cache_control = response.get("Cache-Control", "")
    if "no-store" in cache_control:
        return False
    # "private" (a browser-only copy) fits a page kept for one reader, never a shared one.
    if "private" in cache_control and not reader:
        return False
    # Messages shown or added while rendering belong to this response alone.
    storage = getattr(request, "_messages", None)
    if storage is not None and (getattr(storage, "used", False) or len(storage)):
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
    """Serve and store catalog pages: shared ones for anonymous visitors, and since issue #8
    each signed-in reader's own (see the module docstring; the name is kept for settings).

    Listed after the session, auth, messages, CSRF and CSP middleware, so it can tell who is
    asking, and those still add each visitor's own cookies and headers to a cached response.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        key = getattr(request, "_catalog_page_key", None)
        if key is not None and not response.has_header("X-Page-Cache"):
            reader = request._catalog_page_reader
            if _cacheable_response(request, response, reader=bool(reader)) and (
                not reader or _authenticated_as(request, reader)
            ):
                _store(key, request._catalog_version, response)
            response["X-Page-Cache"] = "miss"
        return response

    def process_view(self, request, view_func, view_args, view_kwargs):
        if not getattr(settings, "CATALOG_PAGE_CACHE", True):
            return None
        found = _cacheable_request(request)
        if found is None:
            return None
        key, version, reader = found
        request._catalog_page_key, request._catalog_version = key, version
        request._catalog_page_reader = reader
        cached = _lookup(key, version)
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
