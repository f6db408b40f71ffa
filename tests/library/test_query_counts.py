"""A signed-in reader's state on every card costs a constant number of queries (DESIGN §1)."""

import itertools
from collections.abc import Callable

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from pytest_django import DjangoAssertNumQueries, Settings

from accounts.models import User
from catalog.models.sources import Source
from library.models import Bookmark
from library.page import GROUP_SIZE
from tests.factories import ListEntryFactory, ListSectionFactory, SourceFactory, UserFactory
from tests.hints import Grow, Tiers

from .controls import pressed

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("render_every_time")]
STATUSES = itertools.cycle(["to_read", "reading", "read"])


@pytest.fixture
def grow_library(many_sources: Grow, reader: User, other_reader: User, settings: Settings) -> Grow:
    """Grow the catalog and put every new source in the reader's (and a teammate's) library."""
    settings.CATALOG_PAGE_SIZE = 100

    def grow(count: int) -> list[Source]:
        sources = many_sources(count)
        Bookmark.objects.bulk_create(
            [Bookmark(user=reader, source=s, status=next(STATUSES)) for s in sources]
            + [Bookmark(user=other_reader, source=s, status="read") for s in sources]
        )
        return sources

    return grow


def count_queries(client: Client, url: str) -> tuple[int, str]:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(ctx.captured_queries), response.content.decode()


PAGES = {
    "home": lambda s: "/",
    "sources": lambda s: "/sources/",
    "source": lambda s: f"/sources/{s[0].slug}/",
    "topic": lambda s: "/topics/bulk/",
    "tier": lambda s: "/tiers/core/",
    "list": lambda s: f"/lists/{s[0].entries.first().section.reading_list.slug}/",
    "library": lambda s: "/library/",
    "library-filtered": lambda s: "/library/?topic=bulk&sort=list&q=source",
    "path-progress": lambda s: "/library/progress/path/",
}


@pytest.mark.parametrize("url_for", PAGES.values(), ids=PAGES.keys())
def test_queries_flat_between_20_and_100_saved_sources(
    client: Client,
    reader: User,
    grow_library: Grow,
    url_for: Callable[[list[Source]], str],
    django_assert_max_num_queries: DjangoAssertNumQueries,
) -> None:
    client.force_login(reader)
    sources = grow_library(20)
    url = url_for(sources)
    baseline, _ = count_queries(client, url)
    grow_library(80)
    with django_assert_max_num_queries(baseline):
        response = client.get(url)
    assert response.status_code == 200


@pytest.mark.parametrize(
    ("url", "cards"),
    [
        ("/sources/", 100),
        ("/topics/bulk/", 100),
        ("/tiers/core/", 100),
        # The library shows each status group's first page.
        ("/library/", 3 * GROUP_SIZE),
    ],
)
def test_every_card_of_100_shows_the_readers_state(
    client: Client, reader: User, grow_library: Grow, url: str, cards: int
) -> None:
    client.force_login(reader)
    sources = grow_library(100)
    _, html = count_queries(client, url)
    assert html.count('aria-pressed="true"') == cards
    for source in sources[-3:]:  # the newest saved: on every page's first screen
        status = Bookmark.objects.get(user=reader, source=source).status
        assert pressed(html, source) == [status]


def test_start_here_path_progress_is_flat(
    client: Client,
    reader: User,
    tiers: Tiers,
    django_assert_max_num_queries: DjangoAssertNumQueries,
) -> None:
    client.force_login(reader)
    section = ListSectionFactory(slug="start-here", position=1)

    def grow(count: int, start: int) -> None:
        for position in range(start, start + count):
            source = SourceFactory(tier=tiers["start-here"])
            ListEntryFactory(section=section, source=source, position=position)
            Bookmark.objects.create(user=reader, source=source, status=next(STATUSES))
            Bookmark.objects.create(user=UserFactory(), source=source, status="read")

    grow(8, 1)
    baseline, html = count_queries(client, "/tiers/start-here/")
    assert "of 8 read" in html
    grow(40, 9)
    with django_assert_max_num_queries(baseline):
        assert "of 48 read" in client.get("/tiers/start-here/").content.decode()


def test_anonymous_cards_cost_no_bookmark_queries(
    client: Client, many_sources: Grow, settings: Settings
) -> None:
    settings.CATALOG_PAGE_SIZE = 100
    many_sources(30)
    with CaptureQueriesContext(connection) as ctx:
        client.get("/sources/")
    assert not [q for q in ctx.captured_queries if "library_bookmark" in q["sql"]]
