"""Which catalog source a reader means when they type a title, an address or a slug into the
"Add a step" field: the exact slug first, then the work an address or identifier names (the
catalog's one identity function), then a title."""

from __future__ import annotations

from urllib.parse import urlsplit

from django.core.exceptions import ValidationError
from django.db.models import QuerySet

from catalog.identity import InvalidIdentifier, work_keys
from catalog.models import Source
from catalog.urlcanon import InvalidURL

from .importing import sources_for

MAX_QUERY = 500
_SHOWN = 5


def find_source(text: str, pool: QuerySet[Source] | None = None) -> Source:
    """The one source of `pool` (published sources by default; a team's path adds the team's
    own) `text` names, or a ValidationError that says why not."""
    text = " ".join(text.split())[:MAX_QUERY]
    if not text:
        raise ValidationError("Type a source's title, its address or its slug.")
    published = Source.objects.published() if pool is None else pool
    slug = _slug_in(text)
    if slug and (source := published.filter(slug=slug).first()):
        return source
    if source := _by_identity(text):
        return source
    titled = list(published.filter(title__iexact=text)[:2])
    if len(titled) == 1:
        return titled[0]
    matches = titled or list(
        published.filter(title__icontains=text).order_by("title")[: _SHOWN + 1]
    )
    if not matches:
        raise ValidationError(f"No source in the catalog matches “{text}”.")
    if len(matches) > 1:
        names = "; ".join(source.title for source in matches[:_SHOWN])
        more = " and more" if len(matches) > _SHOWN else ""
        raise ValidationError(
            f"“{text}” matches several sources ({names}{more}): type more of the title, "
            "or paste the source's address."
        )
    return matches[0]


def _slug_in(text: str) -> str:
    """A bare slug, or the slug of this site's own source address (/sources/<slug>/)."""
    parts = [part for part in urlsplit(text).path.split("/") if part]
    if len(parts) >= 2 and parts[-2] == "sources":
        return parts[-1]
    return text if " " not in text and "/" not in text else ""


def _by_identity(text: str) -> Source | None:
    try:
        keys = work_keys(text)
    except (InvalidIdentifier, InvalidURL, ValueError):
        return None
    if not keys.keys:
        return None
    return sources_for([keys]).find(keys)
