"""The site's pages run a constant number of queries whatever the catalog size."""

from collections.abc import Callable

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from pytest_django import DjangoAssertNumQueries

from catalog.models import Source
from tests.hints import Grow

pytestmark = pytest.mark.django_db


def count_queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


@pytest.mark.parametrize(
    "url_for",
    [
        lambda s: "/",
        lambda s: "/sources/",
        lambda s: "/sources/?page=2",
        lambda s: f"/sources/{s[0].slug}/",
        lambda s: "/topics/bulk/",
        lambda s: "/tiers/core/",
        lambda s: f"/lists/{s[0].entries.first().section.reading_list.slug}/",
        lambda s: "/topics/",
        lambda s: "/tiers/",
        lambda s: "/lists/",
    ],
    ids=[
        "home",
        "sources",
        "sources-p2",
        "source",
        "topic",
        "tier",
        "list",
        "topic-index",
        "tier-index",
        "list-index",
    ],
)
def test_queries_flat_between_10_and_500_sources(
    client: Client,
    many_sources: Grow,
    url_for: Callable[[list[Source]], str],
    django_assert_max_num_queries: DjangoAssertNumQueries,
) -> None:
    url = url_for(many_sources(10))
    baseline = count_queries(client, url)
    many_sources(490)
    with django_assert_max_num_queries(baseline):
        assert client.get(url).status_code == 200
