import datetime
from collections.abc import Callable

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from pytest_django import Settings

from catalog.models import ListEntry, Source
from tests.factories import ListEntryFactory, ListSectionFactory, SourceFactory, TopicFactory
from tests.hints import Tiers

pytestmark = pytest.mark.django_db


def violates(create: Callable[[], object]) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        create()


def test_url_is_unique_when_present(tiers: Tiers) -> None:
    SourceFactory(url="https://example.org/a", tier=tiers["core"])
    violates(lambda: SourceFactory(url="https://example.org/a", tier=tiers["core"]))
    SourceFactory(url="", tier=tiers["core"])
    SourceFactory(url="", tier=tiers["core"])  # several sources may await a URL


def test_slug_is_unique(tiers: Tiers) -> None:
    SourceFactory(slug="same", tier=tiers["core"])
    violates(lambda: SourceFactory(slug="same", tier=tiers["core"]))


def test_year_must_be_sane(tiers: Tiers) -> None:
    violates(lambda: SourceFactory(year=1850, tier=tiers["core"]))
    violates(lambda: SourceFactory(year=2500, tier=tiers["core"]))


def test_url_may_not_contain_a_space(tiers: Tiers) -> None:
    violates(lambda: SourceFactory(url="https://example.org/paper files/x", tier=tiers["core"]))


def test_awaiting_evidence_means_no_url(tiers: Tiers) -> None:
    violates(lambda: SourceFactory(awaiting_evidence=True, tier=tiers["frontier"]))


def test_position_unique_within_a_section(tiers: Tiers) -> None:
    entry = ListEntryFactory(source__tier=tiers["core"])
    violates(
        lambda: ListEntry.objects.create(
            section=entry.section,
            source=SourceFactory(tier=tiers["core"]),
            position=entry.position,
        )
    )


def test_source_once_per_section(tiers: Tiers) -> None:
    entry = ListEntryFactory(source__tier=tiers["core"])
    violates(
        lambda: ListEntry.objects.create(section=entry.section, source=entry.source, position=99)
    )


def test_section_position_unique_in_list(tiers: Tiers) -> None:
    section = ListSectionFactory(position=1)
    violates(lambda: ListSectionFactory(reading_list=section.reading_list, position=1))


def test_validation_errors_name_the_field(tiers: Tiers) -> None:
    source = Source(
        slug="bad",
        title="Bad",
        url="ftp://example.org/x",
        kind="paper",
        tier=tiers["frontier"],
        year=1800,
    )
    with pytest.raises(ValidationError) as error:
        source.full_clean()
    assert {"url", "year", "verified_on"} <= set(error.value.message_dict)


def test_clean_canonicalises_the_url(tiers: Tiers) -> None:
    source = SourceFactory.build(url="https://arxiv.org/pdf/2205.14135v2", tier=tiers["core"])
    source.full_clean()
    assert source.url == "https://arxiv.org/abs/2205.14135"


def test_topics_nest_one_level_only(db: None) -> None:
    grand = TopicFactory(slug="a")
    parent = TopicFactory(slug="b", parent=grand)
    child = TopicFactory.build(slug="c", parent=parent)
    with pytest.raises(ValidationError) as error:
        child.full_clean()
    assert "parent" in error.value.message_dict


def test_frontier_age_and_staleness(tiers: Tiers, settings: Settings) -> None:
    settings.FRONTIER_STALE_AFTER_DAYS = 30
    old = SourceFactory(
        tier=tiers["frontier"], verified_on=datetime.date.today() - datetime.timedelta(days=40)
    )
    assert old.age_in_days() == 40
    assert old.is_stale
