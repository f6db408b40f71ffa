"""Writing a team's own sources: adding, editing and deleting one."""

import secrets
from typing import Any

from django.db import models, transaction
from django.utils.text import slugify

from catalog.models import Source, Tier
from teams.models import Membership

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
    _save_with_file(row, data.get("file"), extracted)
    return row


def may_manage(row: TeamSource, user: Any) -> bool:
    """The member who added a team's source, and the team's owners, edit and delete it."""
    if not getattr(user, "is_authenticated", False):
        return False
    if row.added_by_id is not None and row.added_by_id == user.pk:
        return True
    return Membership.objects.filter(
        team_id=row.team_id, user=user, role=Membership.Role.OWNER
    ).exists()


@transaction.atomic
def edit_team_source(row: TeamSource, *, data: dict[str, Any], extracted: Extracted | None) -> None:
    """Save the form's fields; a new file replaces the old, which leaves storage once the change
    is committed (before then the old row still names it)."""
    source = row.source
    for name in ("title", "url", "kind", "authors", "summary"):
        setattr(source, name, data.get(name) or "")
    source.year = data.get("year")
    source.save()
    old = row.file.name if data.get("file") and extracted is not None else ""
    _save_with_file(row, data.get("file"), extracted)
    if old:
        transaction.on_commit(lambda: forget_file(old))


def _save_with_file(row: TeamSource, upload: Any, extracted: Extracted | None) -> None:
    if not upload or extracted is None:
        row.save()
        return
    row.file_type = extracted.file_type
    row.file_name = (upload.name or "")[:200]
    row.text = extracted.text
    row.text_truncated = extracted.truncated
    row.file.save(upload.name or "upload", upload, save=False)
    try:
        row.save()
    except BaseException:
        # The row never named the new file: keep no orphan in storage.
        forget_file(row.file.name or "")
        raise


def forget_file(name: str) -> None:
    """Remove a stored file; one already gone is no error."""
    if name:
        field = TeamSource._meta.get_field("file")
        assert isinstance(field, models.FileField)
        field.storage.delete(name)
