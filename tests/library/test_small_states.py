"""A library of one source shows that source, without the tools made for many."""

import pytest
from django.test import Client

from accounts.models import User
from library.services import set_status
from tests.hints import SmallCatalog

pytestmark = pytest.mark.django_db


def library_page(client: Client, reader: User, query: str = "") -> str:
    client.force_login(reader)
    return client.get(f"/library/{query}").content.decode()


def test_one_item_hides_the_filters_and_bulk_changes(
    client: Client, reader: User, small_catalog: SmallCatalog
) -> None:
    set_status(user=reader, source=small_catalog["flash"], status="to_read")
    page = library_page(client, reader)
    assert "FlashAttention" in page
    assert 'class="library-filters' not in page
    assert 'id="bulk-form"' not in page
    assert 'form="bulk-form"' not in page
    assert "1 source in your library." in page


def test_two_items_show_the_filters_and_bulk_changes(
    client: Client, reader: User, small_catalog: SmallCatalog
) -> None:
    set_status(user=reader, source=small_catalog["flash"], status="to_read")
    set_status(user=reader, source=small_catalog["path"][0], status="read")
    page = library_page(client, reader)
    assert 'class="library-filters' in page
    assert 'id="bulk-form"' in page
    assert page.count('form="bulk-form"') == 2


def test_a_filtered_address_keeps_its_filters_to_clear(
    client: Client, reader: User, small_catalog: SmallCatalog
) -> None:
    set_status(user=reader, source=small_catalog["flash"], status="to_read")
    page = library_page(client, reader, "?q=nothing-matches-this")
    assert 'class="library-filters' in page
    assert "Clear filters" in page
