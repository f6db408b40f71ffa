"""Catalog gaps: the searches the catalog had no good answer for, grouped and counted.

`record()` is called by the search page when it shows the "no good answer" notice. It keeps
the query's words only (lower case, spaces collapsed, cut to CatalogGap.MAX_LENGTH), never who
asked; the same words count once more each time. A failing write never fails the page.
"""

import logging

from django.db import DatabaseError
from django.db.models import F
from django.utils import timezone

from .models import CatalogGap

logger = logging.getLogger(__name__)


def normalised(text: str) -> str:
    return " ".join(text.lower().split())[: CatalogGap.MAX_LENGTH]


def record(text: str) -> None:
    """Count one more search for `text` that the catalog had no good answer for: one UPDATE
    once the words are known, an INSERT the first time (get_or_create() settles a race)."""
    key = normalised(text)
    if not key:
        return
    try:
        counted = CatalogGap.objects.filter(text=key).update(
            searches=F("searches") + 1, last_seen=timezone.now()
        )
        if not counted:
            CatalogGap.objects.get_or_create(text=key)
    except DatabaseError:
        logger.warning("could not record a catalog gap", exc_info=True)
