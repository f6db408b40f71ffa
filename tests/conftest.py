from collections.abc import Iterator

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.db import transaction
from django.test import Client
from pytest_django import DjangoDbBlocker, Settings

from accounts.models import User
from catalog.catalog_file import read_catalog
from catalog.models.sources import Source
from catalog.services import LoadReport, load_catalog

from .factories import (
    ListEntryFactory,
    ListSectionFactory,
    ReadingListFactory,
    SourceFactory,
    TierFactory,
    TopicFactory,
    UserFactory,
)
from .hints import Grow, SmallCatalog, Tiers

PASSWORD = "correct horse battery staple"


def pytest_runtest_setup(item: pytest.Item) -> None:
    from django.db import connection

    if item.get_closest_marker("postgres") and connection.vendor != "postgresql":
        pytest.skip(f"needs PostgreSQL (full-text search, pg_trgm), not {connection.vendor}")


@pytest.fixture(autouse=True)
def _test_settings(settings: Settings) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # Tests do not run collectstatic, so static URLs come from the plain storage.
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture
def fresh_cache(db: None) -> Iterator[None]:
    """A cache cleared before and after the test: allauth counts attempts there, and readers'
    pages are kept there. The cache is a table, hence `db`."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def tiers(db: None) -> Tiers:
    return {
        slug: TierFactory(slug=slug, position=position)
        for position, slug in enumerate(["start-here", "core", "frontier", "further-reading"])
    }


@pytest.fixture
def small_catalog(tiers: Tiers) -> SmallCatalog:
    """A tiny catalog: one list with a three-step start-here path and a core section."""
    kernels = TopicFactory(slug="kernels", name="Kernel engineering")
    attention = TopicFactory(slug="attention", name="Attention", parent=kernels)
    serving = TopicFactory(slug="serving", name="Serving")
    reading_list = ReadingListFactory(
        slug="wafer", title="Primary sources", contribution_rules="Primary sources only."
    )
    path = ListSectionFactory(reading_list=reading_list, slug="start-here", title="Start here")
    core = ListSectionFactory(reading_list=reading_list, slug="core", title="Attention kernels")
    steps = [
        SourceFactory(
            slug="scaling-book",
            title="How to Scale Your Model",
            tier=tiers["start-here"],
            topics=[serving],
        ),
        SourceFactory(
            slug="attention-paper",
            title="Attention Is All You Need",
            tier=tiers["start-here"],
            topics=[attention],
            year=2017,
        ),
        SourceFactory(
            slug="roofline", title="Roofline", tier=tiers["start-here"], topics=[kernels]
        ),
    ]
    for position, source in enumerate(steps, start=1):
        ListEntryFactory(section=path, source=source, position=position)
    flash = SourceFactory(
        slug="flashattention",
        title="FlashAttention",
        authors="Tri Dao et al.",
        tier=tiers["core"],
        topics=[attention],
        year=2022,
        aliases="FA1, IO-aware attention",
    )
    ListEntryFactory(section=core, source=flash, position=1)
    return {"list": reading_list, "path": steps, "flash": flash, "topics": [kernels, attention]}


@pytest.fixture
def full_catalog(db: None) -> LoadReport:
    """The shipped catalog file, loaded."""
    return load_catalog(read_catalog(), progress=False)


@pytest.fixture(scope="module")
def shipped_catalog(django_db_setup: None, django_db_blocker: DjangoDbBlocker) -> Iterator[None]:
    """The shipped catalog, loaded once for the module and rolled back at its end.

    Like `full_catalog`, but loading the file takes seconds and these tests only read.
    """
    with django_db_blocker.unblock(), transaction.atomic():
        load_catalog(read_catalog(), progress=False)
        yield
        transaction.set_rollback(True)


@pytest.fixture
def many_sources(tiers: Tiers) -> Grow:
    """Grow the catalog to a given size, for query-count tests at two sizes."""
    topic = TopicFactory(slug="bulk", name="Bulk")

    def grow(count: int) -> list[Source]:
        sources = SourceFactory.create_batch(count, tier=tiers["core"], topics=[topic])
        section = ListSectionFactory()
        for position, source in enumerate(sources, start=1):
            ListEntryFactory(section=section, source=source, position=position)
        return sources

    return grow


@pytest.fixture
def reader(db: None) -> User:
    return UserFactory(email="reader@example.com")


@pytest.fixture
def signed_in(client: Client, reader: User) -> Client:
    """The test client, signed in as the reader."""
    client.force_login(reader)
    return client


@pytest.fixture
def render_every_time(settings: Settings) -> None:
    """For tests that count a render's queries or time it: the page cache would answer without."""
    settings.CATALOG_PAGE_CACHE = False


@pytest.fixture
def other_reader(db: None) -> User:
    return UserFactory(email="other@example.com")


@pytest.fixture
def maintainer(db: None) -> User:
    user = UserFactory(email="maintainer@example.com")
    call_command("create_maintainer", user.email, verbosity=0)
    user.refresh_from_db()
    return user
