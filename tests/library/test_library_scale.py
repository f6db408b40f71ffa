"""/library/ shows a bounded number of cards whatever the reader saved: each status group's
first page, "Show more" for the rest (htmx, or a plain link), filters, bulk changes and exports
still reaching every bookmark."""

import csv
import io
import itertools
from collections.abc import Sequence
from typing import Protocol

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from pytest_django import DjangoAssertNumQueries

from accounts.models import User
from catalog.models.sources import Source
from library.models import Bookmark
from library.page import GROUP_SIZE
from tests.hints import Grow, present

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("render_every_time")]
HX = {"HX-Request": "true"}


class Save(Protocol):
    def __call__(self, count: int, statuses: Sequence[str] = ...) -> list[Source]: ...


@pytest.fixture
def saved(many_sources: Grow, reader: User) -> Save:
    """Put `count` new sources in the reader's library, statuses in turn; newest last."""

    def save(count: int, statuses: Sequence[str] = ("to_read", "reading", "read")) -> list[Source]:
        sources = many_sources(count)
        status = itertools.cycle(statuses)
        Bookmark.objects.bulk_create(
            [Bookmark(user=reader, source=s, status=next(status)) for s in sources]
        )
        return sources

    return save


def cards(html: str) -> int:
    return html.count('class="library-item"')


def test_first_response_for_200_saved_is_under_150_kb(
    client: Client, reader: User, saved: Save
) -> None:
    saved(200)
    client.force_login(reader)
    response = client.get("/library/")
    assert response.status_code == 200
    assert len(response.content) <= 150 * 1024, f"{len(response.content) / 1024:.0f} KB"
    html = response.content.decode()
    assert cards(html) == 3 * GROUP_SIZE
    assert "200 sources in your library." in html
    # Each group says how many it holds and links to the rest, with and without JavaScript.
    assert 'id="group-to_read">To read <span class="count">67</span>' in html
    assert 'href="/library/?status=to_read&amp;page=2"' in html
    assert 'data-hx-target="#more-to_read"' in html and "(57 more)" in html


def test_show_more_appends_the_groups_next_page_only(
    client: Client, reader: User, saved: Save
) -> None:
    sources = saved(2 * GROUP_SIZE + 5, statuses=["read"])
    client.force_login(reader)
    response = client.get("/library/?status=read&page=2", headers=HX | {"HX-Target": "more-read"})
    html = response.content.decode()
    assert "<html" not in html and 'id="library-results"' not in html
    assert cards(html) == GROUP_SIZE
    # Newest first: the second page holds the 21st to the 40th newest.
    newest_first = sources[::-1]
    assert f'value="{Bookmark.objects.get(source=newest_first[GROUP_SIZE]).pk}"' in html
    assert 'href="/library/?status=read&amp;page=3"' in html and "(5 more)" in html
    last = client.get(
        "/library/?status=read&page=3", headers=HX | {"HX-Target": "more-read"}
    ).content.decode()
    assert cards(last) == 5 and "Show more" not in last


def test_without_javascript_a_group_turns_pages(client: Client, reader: User, saved: Save) -> None:
    saved(2 * GROUP_SIZE + 5, statuses=["reading"])
    client.force_login(reader)
    html = client.get("/library/?status=reading&page=3").content.decode()
    assert cards(html) == 5
    assert "Page 3 of 3" in html and 'href="?status=reading&amp;page=2"' in html
    beyond = client.get("/library/?status=reading&page=99").content.decode()
    assert "Page 3 of 3" in beyond
    assert cards(client.get("/library/?status=reading&page=x").content.decode()) == GROUP_SIZE


def test_show_more_keeps_the_filters(client: Client, reader: User, saved: Save) -> None:
    saved(2 * GROUP_SIZE, statuses=["to_read"])
    client.force_login(reader)
    html = client.get("/library/?q=source&sort=title").content.decode()
    assert 'href="/library/?q=source&amp;sort=title&amp;status=to_read&amp;page=2"' in html


def test_bulk_change_reaches_bookmarks_beyond_the_first_page(
    client: Client, reader: User, saved: Save
) -> None:
    saved(2 * GROUP_SIZE, statuses=["to_read"])
    client.force_login(reader)
    html = client.get("/library/?status=to_read&page=2").content.decode()
    oldest = present(Bookmark.objects.filter(user=reader).order_by("saved_at", "pk").first())
    assert f'value="{oldest.pk}"' in html
    response = client.post(
        "/library/bulk/",
        {"action": "read", "bookmarks": [oldest.pk], "next": "/library/?status=to_read&page=2"},
    )
    assert response["Location"] == "/library/?status=to_read&page=2"
    oldest.refresh_from_db()
    assert oldest.status == "read"


def test_exports_still_hold_every_bookmark(client: Client, reader: User, saved: Save) -> None:
    saved(3 * GROUP_SIZE + 7)
    client.force_login(reader)
    rows = list(csv.DictReader(io.StringIO(client.get("/library/export.csv").content.decode())))
    assert len(rows) == 3 * GROUP_SIZE + 7


@pytest.mark.parametrize("url", ["/library/", "/library/?status=read&page=2"])
def test_library_queries_flat_between_30_and_200_saved(
    client: Client,
    reader: User,
    saved: Save,
    url: str,
    django_assert_max_num_queries: DjangoAssertNumQueries,
) -> None:
    client.force_login(reader)
    saved(30)
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    saved(170)
    with django_assert_max_num_queries(len(ctx.captured_queries)):
        assert client.get(url).status_code == 200
