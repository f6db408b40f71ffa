"""The columns a reader's write needs of a source (its id, slug and title), by slug.

A bookmark click and a new note name their source by slug and show only its title: each process
remembers those three columns per slug under the catalog version, which every committed catalog
change replaces, so a remembered title is never older than the catalog. The version is read
before the database, as the page cache reads it, so a row read during a change is kept under
the version before it. Only sources anyone may see are remembered: a private one is read from
the database each time, for a reader allowed to see it.
"""

from typing import Any

from django.db import router
from django.shortcuts import get_object_or_404

from readinglist.pagecache import trusted_catalog_version

from .models import Source

FIELDS = ("id", "slug", "title", "status")
# A bound on what one process keeps; a catalog holds a few thousand sources.
MAX_KEPT = 10_000
# slug -> (catalog version, id, title, status)
_kept: dict[str, tuple[str, int, str, str]] = {}


def source_for_write(slug: str, reader: Any = None) -> Source:
    """The source at `slug` with only its id, slug, title and status loaded; Http404 when none
    is, or when it is private and `reader` (None: nobody) may not see it."""
    version = trusted_catalog_version()
    kept = _kept.get(slug)
    if version is not None and kept is not None and kept[0] == version:
        values = [kept[1], slug, kept[2], kept[3]]
        return Source.from_db(router.db_for_read(Source), list(FIELDS), values)
    source = get_object_or_404(Source.all_objects.visible_to(reader).only(*FIELDS), slug=slug)
    if version is not None and not source.is_private:
        if len(_kept) >= MAX_KEPT:
            _kept.clear()
        _kept[slug] = (version, source.pk, source.title, source.status)
    return source
