"""Versions: random values in the `default` cache that every stored page is checked against.

A page is stored with the versions it was rendered under and served only while all of them are
still current, so replacing a version drops every page rendered under it, in every process:
  - the catalog version, replaced after any change to a catalog-scoped model;
  - each reader's own version, replaced by changes to that reader's rows;
  - each team's version, replaced by changes its members could see, and the version of all
    teams (bump_team_version) for writes that cannot name their teams;
  - the readers' epoch, replaced when a change cannot be tied to one reader;
  - today's date (not stored), because pages show ages in days.
Versions live in `default`, not in the evictable `pages` store: losing one would only drop
pages, but `default` also holds what must not be evicted, and a version must outlive its pages.

Versions are fresh random values rather than counters: a counter could repeat after the cache is
cleared and bring back pages rendered from older data.

A bump that fails (the cache is down after a write committed) must not fail the write. The key
is kept in this process as pending: until it has been replaced, this process serves and stores
no page at all (version reads "fail closed" to a miss), and it retries the bump before each
page it looks up.
"""

import threading
import uuid
from collections.abc import Callable, Iterable
from datetime import UTC

from django.conf import settings
from django.core.cache import BaseCache, caches
from django.utils import timezone

from .failsafe import CACHE_ERRORS, warn

# Where versions live: an alias that raises when the cache fails (readinglist/settings_parts/
# caches.py sets one up beside a fail-open default), else the default cache.
VERSIONS_ALIAS = "versions"
VERSION_KEY = "catalog:version"
READERS_EPOCH_KEY = "readers:epoch"
TEAM_VERSION_KEY = "readers:team-version"
READER_VERSION_KEY = "reader:version:{}"
TEAMS_VERSION_KEY = "team:version:{}"
# (the reader's version when read, their team ids): valid while the reader's version stands,
# which every membership change of theirs replaces.
READER_TEAMS_KEY = "reader:teams:{}"

_pending: set[str] = set()
_pending_lock = threading.Lock()


def _cache() -> BaseCache:
    return caches[VERSIONS_ALIAS if VERSIONS_ALIAS in settings.CACHES else "default"]


def _current(key: str) -> str:
    """The version stored under `key`, created (a random value) when missing."""
    version = uuid.uuid4().hex
    # add(): when two processes race, both end up using the one that was stored first.
    if not _cache().add(key, version, timeout=None):
        version = _cache().get(key, version)
    return version


def catalog_version() -> str:
    return _cache().get(VERSION_KEY) or _current(VERSION_KEY)


def _write(keys: Iterable[str]) -> None:
    _cache().set_many({key: uuid.uuid4().hex for key in keys}, timeout=None)


def replace(*keys: str) -> None:
    """Replace the versions under `keys`; never raises (see the module docstring)."""
    try:
        _write(keys)
    except CACHE_ERRORS as error:
        with _pending_lock:
            _pending.update(keys)
        warn("version bump", error)


def bumps_pending() -> bool:
    return bool(_pending)


def _retry_pending() -> bool:
    """Replace the versions whose bump failed; True when none is left waiting."""
    if not _pending:
        return True
    with _pending_lock:
        keys = set(_pending)
    try:
        _write(keys)
    except CACHE_ERRORS:
        return False
    with _pending_lock:
        _pending.difference_update(keys)
    return not _pending


def bump_catalog_version() -> None:
    """Invalidate every cached page. Call it after writes that send no signals (bulk updates)."""
    replace(VERSION_KEY)


def bump_reader_version(user_id: int) -> None:
    """Invalidate one reader's pages. Call it after writes to their rows that send no signals."""
    replace(READER_VERSION_KEY.format(user_id))


def bump_team_version(team_id: int | None = None) -> None:
    """Invalidate the pages that show one team's data, or every team's without `team_id`."""
    replace(TEAM_VERSION_KEY if team_id is None else TEAMS_VERSION_KEY.format(team_id))


def bump_all_pages() -> None:
    """Invalidate every cached page, anonymous and signed-in (restores, raw SQL on any table)."""
    replace(VERSION_KEY, READERS_EPOCH_KEY, TEAM_VERSION_KEY)


def page_versions(
    keys: list[str], teams_of: Callable[[], list[int] | None] | None = None, reader: str = ""
) -> tuple[str, ...] | None:
    """Today's date and the current value of each key, in one round trip; None when they
    cannot be trusted (the cache is down, or a bump of this process still waits).

    With `teams_of` (the reader's team ids, from the database), the versions of `reader`'s
    teams follow, in a second round trip; the ids are kept under the reader's version, so they
    are read from the database again after any change to the reader's memberships.
    """
    try:
        if not _retry_pending():
            return None
        teams_key = READER_TEAMS_KEY.format(reader)
        found = _cache().get_many([*keys, teams_key] if teams_of else keys)
        # The date the templates count ages from, in UTC: the reader's own zone (active for
        # signed-in readers) would load their row, which a hit must not.
        today = timezone.localdate(timezone=UTC).isoformat()
        versions = (today, *(found.get(k) or _current(k) for k in keys))
        if teams_of is None:
            return versions
        reader_version = versions[1 + keys.index(READER_VERSION_KEY.format(reader))]
        return versions + _team_versions(found.get(teams_key), teams_key, reader_version, teams_of)
    except CACHE_ERRORS as error:
        warn("version read", error)
        return None


def _team_versions(
    kept: tuple[str, list[int]] | None,
    teams_key: str,
    reader_version: str,
    teams_of: Callable[[], list[int] | None],
) -> tuple[str, ...]:
    if kept is not None and kept[0] == reader_version:
        team_ids = kept[1]
    else:
        team_ids = teams_of() or []
        _cache().set(teams_key, (reader_version, team_ids), timeout=None)
    team_keys = [TEAMS_VERSION_KEY.format(pk) for pk in team_ids]
    found = _cache().get_many(team_keys) if team_keys else {}
    # The ids themselves are part of the versions: a page is only for this set of teams.
    return (",".join(map(str, team_ids)), *(found.get(k) or _current(k) for k in team_keys))
