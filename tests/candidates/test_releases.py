from datetime import UTC, date, datetime

import pytest

from candidates.collectors import major_minor
from candidates.entries import Entry
from candidates.models import UpstreamRelease
from candidates.releases import record_releases
from tests.factories import SourceFactory
from tests.hints import Tiers

NOW = datetime(2025, 11, 21, tzinfo=UTC)


def release(title: str, day: int, month: int = 11) -> Entry:
    return Entry(
        title=title,
        url=f"https://github.com/o/r/releases/tag/{title}",
        published=datetime(2025, month, day, tzinfo=UTC),
    )


@pytest.mark.parametrize(
    "title, version",
    [("v0.7.1", (0, 7)), ("vLLM 1.10.0", (1, 10)), ("Release 2.3", (2, 3)), ("nightly", None)],
)
def test_major_minor_reads_release_titles(title: str, version: tuple[int, int] | None) -> None:
    assert major_minor(title) == version


def test_first_look_records_a_baseline_and_flags_nothing(tiers: Tiers) -> None:
    source = SourceFactory(verified_on=None)

    flagged = record_releases(source, [release("v0.7.0", 10), release("v0.6.3", 1, 9)], now=NOW)

    assert flagged == []
    assert UpstreamRelease.objects.get().version == "0.7"


def test_a_minor_release_after_verification_is_flagged_a_patch_is_not(tiers: Tiers) -> None:
    source = SourceFactory(verified_on=date(2025, 10, 1))
    entries = [release("v0.7.1", 20), release("v0.7.0", 10), release("v0.6.3", 1, 9)]

    flagged = record_releases(source, entries, now=NOW)
    again = record_releases(source, entries, now=NOW)

    assert [row.version for row in flagged] == ["0.7"]
    assert again == []
    assert UpstreamRelease.objects.get(version="0.7").status == UpstreamRelease.Status.TO_VERIFY
