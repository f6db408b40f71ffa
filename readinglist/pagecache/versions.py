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

import functools
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
# ((the reader's memberships version, the readers' epoch) when read, their team ids): valid while
# both stand. Every membership change of the reader's replaces the first; restores and writes
# that cannot be tied to a reader replace the second. Kept apart from the reader's own version,
# which each of their writes replaces, so a reader's bookmark does not cost a query for their
# teams on the next page.
READER_TEAMS_KEY = "reader:teams:{}"
READER_MEMBERSHIPS_KEY = "reader:memberships:{}"

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


def trusted_catalog_version() -> str | None:
    """The catalog version, or None when it cannot be trusted (the cache is down, or a bump of
    this process still waits): for callers that keep catalog rows of their own under it."""
    try:
        return catalog_version() if _retry_pending() else None
    except CACHE_ERRORS as error:
        warn("version read", error)
        return None


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
    teams follow, in a second round trip; `keys` then hold the readers' epoch. The ids are kept
    in the cache (READER_TEAMS_KEY), so they are read from the database again only after a
    change to the reader's memberships.
    """
    try:
        if not _retry_pending():
            return None
        kept = [READER_TEAMS_KEY.format(reader), READER_MEMBERSHIPS_KEY.format(reader)]
        found = _cache().get_many([*keys, *kept] if teams_of else keys)
        # The date the templates count ages from, in UTC: the reader's own zone (active for
        # signed-in readers) would load their row, which a hit must not.
        today = timezone.localdate(timezone=UTC).isoformat()
        versions = (today, *(found.get(k) or _current(k) for k in keys))
        if teams_of is None:
            return versions
        epoch = versions[1 + keys.index(READERS_EPOCH_KEY)]
        team_ids = _team_ids(reader, found, epoch, teams_of) or []
        return versions + _team_versions(team_ids)
    except CACHE_ERRORS as error:
        warn("version read", error)
        return None


def _team_ids(
    reader: str, found: dict, epoch: str, teams_of: Callable[[], list[int] | None]
) -> list[int] | None:
    """The reader's team ids as kept in the cache, or read by `teams_of` and kept."""
    stamp = (_found_or_current(found, READER_MEMBERSHIPS_KEY.format(reader)), epoch)
    kept = found.get(READER_TEAMS_KEY.format(reader))
    if kept is not None and tuple(kept[0]) == stamp:
        return kept[1]
    team_ids = teams_of()
    if team_ids is not None:
        _cache().set(READER_TEAMS_KEY.format(reader), (stamp, team_ids), timeout=None)
    return team_ids


def _found_or_current(found: dict, key: str) -> str:
    return found.get(key) or _current(key)


def _team_versions(team_ids: list[int]) -> tuple[str, ...]:
    team_keys = [TEAMS_VERSION_KEY.format(pk) for pk in team_ids]
    found = _cache().get_many(team_keys) if team_keys else {}
    # The ids themselves are part of the versions: a page is only for this set of teams.
    return (",".join(map(str, team_ids)), *(found.get(k) or _current(k) for k in team_keys))


def replace_with_readers_teams(
    keys: Iterable[str], readers: Iterable[object], teams_of: Callable[[object], list[int] | None]
) -> None:
    """Replace `keys` and the versions of every team each of `readers` belongs to (all teams'
    when `teams_of` cannot say); never raises, as replace().

    The team ids come from the cache the pages keep them in (two round trips with the bump),
    and from `teams_of` (the database) only when that copy is missing or stale.
    """
    ids = list(dict.fromkeys(map(str, readers)))
    team_keys: list[str] = []
    try:
        own = (READER_TEAMS_KEY, READER_MEMBERSHIPS_KEY)
        kept = [key.format(r) for r in ids for key in own]
        found = _cache().get_many([*kept, READERS_EPOCH_KEY])
        epoch = _found_or_current(found, READERS_EPOCH_KEY)
        team_ids = [_team_ids(r, found, epoch, functools.partial(teams_of, r)) for r in ids]
    except CACHE_ERRORS as error:
        # The bump below will most likely fail too and stay pending: it must name the teams.
        warn("version read", error)
        team_ids = [teams_of(r) for r in ids]
    for teams in team_ids:
        if teams is None:
            team_keys.append(TEAM_VERSION_KEY)
        else:
            team_keys += (TEAMS_VERSION_KEY.format(pk) for pk in teams)
    replace(*keys, *dict.fromkeys(team_keys))
