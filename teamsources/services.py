"""Writing a team's own sources."""

import secrets
from typing import Any

from django.db import transaction
from django.utils.text import slugify

from catalog.models import Source, Tier

from .extraction import Extracted
from .models import TeamSource


class NoTier(Exception):
    """The catalog has no tier yet to file a source under."""


def private_slug(title: str) -> str:
    # A random tail: a team's slug never collides with one the catalog gives out later, and
    # the address says nothing a guess could confirm (non-members get 404 anyway).
    return f"{slugify(title)[:100] or 'source'}-{secrets.token_hex(4)}"


def _tier() -> Tier:
    tier = Tier.objects.filter(slug=Tier.FURTHER_READING).first() or Tier.objects.first()
    if tier is None:
        raise NoTier
    return tier


@transaction.atomic
def add_team_source(
    *, team: Any, user: Any, data: dict[str, Any], extracted: Extracted | None
) -> TeamSource:
    source = Source(
        slug=private_slug(data["title"]),
        title=data["title"],
        url=data.get("url", ""),
        kind=data["kind"],
        authors=data.get("authors", ""),
        year=data.get("year"),
        summary=data.get("summary", ""),
        tier=_tier(),
        status=Source.Status.PRIVATE,
    )
    source.save()
    row = TeamSource(source=source, team=team, added_by=user)
    upload = data.get("file")
    if upload and extracted is not None:
        row.file_type = extracted.file_type
        row.file_name = (upload.name or "")[:200]
        row.text = extracted.text
        row.text_truncated = extracted.truncated
        row.file.save(upload.name or "upload", upload, save=False)
    row.save()
    return row
