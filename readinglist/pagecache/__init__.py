"""Whole-page cache: shared pages for anonymous visitors and each signed-in reader's own.

Views opt in with one decorator line (`page_cache`), apps declare in AppConfig.ready() which
changes drop which pages (`register`), and writes that send no signals call a bump. Everything
else (versions, stores, splicing, the middleware) is internal; docs/caching.md describes it.
"""

from .policies import dont_store, page_cache
from .registry import (
    bump_reader_and_team_versions,
    exempt,
    register,
    register_memberships,
    rule_for,
)
from .versions import (
    bump_all_pages,
    bump_catalog_version,
    bump_reader_version,
    bump_team_version,
    catalog_version,
    trusted_catalog_version,
)

__all__ = [
    "bump_all_pages",
    "bump_catalog_version",
    "bump_reader_and_team_versions",
    "bump_reader_version",
    "bump_team_version",
    "catalog_version",
    "dont_store",
    "exempt",
    "page_cache",
    "register",
    "register_memberships",
    "rule_for",
    "trusted_catalog_version",
]
