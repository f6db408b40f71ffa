"""A write's source, by slug: remembered per process under the catalog version."""

from collections.abc import Iterator

import pytest
from django.db import connection
from django.http import Http404
from django.test.utils import CaptureQueriesContext
from pytest_django import DjangoCaptureOnCommitCallbacks

from catalog import source_refs
from catalog.source_refs import source_for_write
from readinglist.pagecache import versions
from tests.hints import SmallCatalog

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _forget() -> Iterator[None]:
    source_refs._kept.clear()
    yield
    source_refs._kept.clear()


def source_reads(ctx: CaptureQueriesContext) -> int:
    """Statements reading sources (the tests' cache is a table: its reads are statements too)."""
    return sum('FROM "catalog_source"' in q["sql"] for q in ctx.captured_queries)


def test_a_source_is_read_once_while_the_catalog_is_unchanged(small_catalog: SmallCatalog) -> None:
    flash = small_catalog["flash"]
    first = source_for_write(flash.slug)
    with CaptureQueriesContext(connection) as ctx:
        again = source_for_write(flash.slug)
    assert source_reads(ctx) == 0
    for source in (first, again):
        assert (source.pk, source.slug, source.title) == (flash.pk, flash.slug, flash.title)
        assert source.get_deferred_fields() >= {"url", "summary"}


def test_a_catalog_change_is_seen_at_once(
    small_catalog: SmallCatalog, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    flash = small_catalog["flash"]
    source_for_write(flash.slug)
    with django_capture_on_commit_callbacks(execute=True):
        flash.title = "FlashAttention, renamed"
        flash.save()
    assert source_for_write(flash.slug).title == "FlashAttention, renamed"


def test_an_unknown_slug_is_a_404(small_catalog: SmallCatalog) -> None:
    with pytest.raises(Http404):
        source_for_write("no-such-source")
    assert "no-such-source" not in source_refs._kept


def test_nothing_is_remembered_while_the_versions_cannot_be_trusted(
    small_catalog: SmallCatalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    flash = small_catalog["flash"]
    monkeypatch.setattr(versions, "_retry_pending", lambda: False)
    source_for_write(flash.slug)
    with CaptureQueriesContext(connection) as ctx:
        assert source_for_write(flash.slug).pk == flash.pk
    assert source_reads(ctx) == 1
    assert source_refs._kept == {}
