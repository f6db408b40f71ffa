"""/catalog.json runs a constant number of queries whatever the catalog size."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from pytest_django import DjangoAssertNumQueries

from tests.hints import Grow

pytestmark = pytest.mark.django_db


def test_the_catalog_document_reads_flat_between_10_and_500_sources(
    client: Client, many_sources: Grow, django_assert_max_num_queries: DjangoAssertNumQueries
) -> None:
    many_sources(10)
    with CaptureQueriesContext(connection) as baseline:
        assert client.get("/catalog.json").status_code == 200
    many_sources(490)
    with django_assert_max_num_queries(len(baseline.captured_queries)):
        assert client.get("/catalog.json").status_code == 200
