"""The identifiers and full record of a catalog file's source entry, validated: the arXiv id
and DOI syntax, the ISBN check digit, the repository's owner/name, where the facts were checked,
and no two sources sharing any identity key (catalog.identity)."""

import datetime
from typing import TYPE_CHECKING

from .identity import (
    InvalidIdentifier,
    check_arxiv,
    check_doi,
    check_isbn,
    check_repository,
    work_keys,
)
from .urlcanon import InvalidURL

if TYPE_CHECKING:
    from .catalog_document import CatalogItem, _Row

FULL_TITLE_MAX = 500
_CHECKS = {
    "arxiv": check_arxiv,
    "doi": check_doi,
    "isbn": check_isbn,
    "repository": check_repository,
}


def _identifier(row: "_Row", field: str) -> str:
    value = row.text(field, max_length=200)
    try:
        return _CHECKS[field](value) if value else ""
    except InvalidIdentifier as exc:
        row.fail(field, str(exc))


def _verified_from(row: "_Row") -> tuple[str, datetime.date | None]:
    value = row.item.get("verified_from")
    if value in (None, ""):
        return "", None
    if not isinstance(value, dict) or set(value) - {"url", "on"}:
        row.fail("verified_from", 'must be a table { url = "https://…", on = YYYY-MM-DD }')
    try:
        url = work_keys(str(value.get("url") or "")).url
    except InvalidURL as exc:
        row.fail("verified_from", f"url: {exc}")
    on = value.get("on")
    if on not in (None, "") and not isinstance(on, datetime.date):
        try:
            on = datetime.date.fromisoformat(str(on))
        except ValueError:
            row.fail("verified_from", f"on: '{on}' is not a date (YYYY-MM-DD)")
    if not url or not on:
        row.fail("verified_from", "needs both the url and the date (on) the facts were checked")
    return url, on


def identifier_fields(row: "_Row", url: str) -> "CatalogItem":
    """A source's identifiers, with those its URL names filled in when the file gives none."""
    keys = work_keys(url) if url else None
    fields = {name: _identifier(row, name) for name in _CHECKS}
    if keys is not None:
        fields["arxiv"] = fields["arxiv"] or keys.arxiv
        fields["doi"] = fields["doi"] or keys.doi
        if keys.is_repository_root:
            fields["repository"] = fields["repository"] or keys.repository
    verified_url, verified_on = _verified_from(row)
    return {
        "full_title": row.text("full_title", max_length=FULL_TITLE_MAX),
        "arxiv_id": fields["arxiv"],
        "doi": fields["doi"],
        "isbn": fields["isbn"],
        "repository": fields["repository"],
        "verified_from_url": verified_url,
        "verified_from_date": verified_on,
    }


def identity_keys(source: "CatalogItem") -> list[tuple[str, str]]:
    """(field, key) for every identity key of a validated source entry."""
    keys = []
    for field, name in (("arxiv", "arxiv_id"), ("doi", "doi"), ("isbn", "isbn")):
        if source[name]:
            keys.append((field, f"{field}:{source[name]}"))
    if source["repository"]:
        keys.append(("repository", f"repository:{source['repository'].lower()}"))
    if source["url"]:
        keys.append(("url", f"url:{work_keys(source['url']).canonical_url}"))
    return keys


def first_shared_key(sources: list["CatalogItem"]) -> tuple[int, str, str, str] | None:
    """(index, field, key, other slug) of the first source sharing a key with an earlier one."""
    owners: dict[str, str] = {}
    for index, source in enumerate(sources):
        for field, key in identity_keys(source):
            if key in owners and owners[key] != source["slug"]:
                return index, field, key, owners[key]
            owners.setdefault(key, source["slug"])
    return None
