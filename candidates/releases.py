"""New major or minor releases of catalogued repositories, flagged for re-verification."""

from datetime import date, datetime

from django.db import transaction

from catalog.models import Source

from .collectors import major_minor
from .entries import Entry
from .models import UpstreamRelease


def _version_text(version: tuple[int, int]) -> str:
    return f"{version[0]}.{version[1]}"


def _baseline(source: Source, releases: list[tuple[tuple[int, int], Entry]]) -> tuple[int, int]:
    """The newest major.minor already accounted for: recorded before, or out before the source
    was last verified."""
    seen = [
        version
        for text in UpstreamRelease.objects.filter(source=source).values_list("version", flat=True)
        if (version := major_minor(text))
    ]
    verified: date | None = source.verified_on
    if verified:
        seen += [
            version
            for version, entry in releases
            if entry.published and entry.published.date() <= verified
        ]
    return max(seen, default=(-1, -1))


@transaction.atomic
def record_releases(
    source: Source, entries: list[Entry], *, dry_run: bool = False, now: datetime
) -> list[UpstreamRelease]:
    """Flag each major.minor newer than the baseline (patch releases change no page).

    The first look at a repository whose source has no verification date records its newest
    release as the baseline, flagging nothing: the catalog entry describes what exists today.
    """
    releases = [(version, e) for e in entries if (version := major_minor(e.title))]
    if not releases:
        return []
    baseline = _baseline(source, releases)
    newest_version, newest = max(releases, key=lambda pair: pair[0])
    if baseline == (-1, -1):
        if not dry_run:
            UpstreamRelease.objects.get_or_create(
                source=source,
                version=_version_text(newest_version),
                defaults={
                    "title": newest.title,
                    "url": newest.url,
                    "published": newest.published,
                    "status": UpstreamRelease.Status.VERIFIED,
                    "found": now,
                },
            )
        return []
    flagged: dict[tuple[int, int], Entry] = {}
    for version, entry in sorted(releases, key=lambda pair: pair[0]):
        if version > baseline:
            flagged.setdefault(version, entry)
    rows = [
        UpstreamRelease(
            source=source,
            version=_version_text(version),
            title=entry.title,
            url=entry.url,
            published=entry.published,
            found=now,
        )
        for version, entry in flagged.items()
    ]
    if not dry_run and rows:
        UpstreamRelease.objects.bulk_create(rows, ignore_conflicts=True)
    return rows
