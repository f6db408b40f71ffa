"""Related sources: what a reader sees under "Related sources", and why each is there."""

import re
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone
from pytest_django import DjangoAssertNumQueries, DjangoCaptureOnCommitCallbacks

from catalog.catalog_file import read_catalog
from catalog.models import Source, SourceNeighbour
from catalog.related.compute import recompute_neighbours
from catalog.services import LoadReport, load_catalog
from library.models import Bookmark
from tests.hints import Grow, SmallCatalog, Tiers

from ..factories import SourceFactory, TopicFactory, UserFactory

pytestmark = pytest.mark.django_db


def related_section(client: Client, slug: str) -> str:
    html = client.get(f"/sources/{slug}/").content.decode()
    start = html.find('id="related-heading"')
    return html[start : html.find("</section>", start)] if start != -1 else ""


@pytest.fixture
def related_catalog(
    db: None, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> LoadReport:
    """The shipped catalog, loaded as the loader's commit would leave it: neighbours computed."""
    with django_capture_on_commit_callbacks(execute=True):
        return load_catalog(read_catalog(), progress=False)


def test_each_related_source_says_why_it_is_there(
    client: Client, related_catalog: LoadReport
) -> None:
    flash2 = related_section(client, "flashattention-2")
    assert flash2.index("FlashAttention-3") < flash2.index("FlashAttention-4")
    assert "Linked by the catalog&#x27;s curators" in flash2
    assert "Same section of the Wafer list: Attention kernels" in flash2
    orca = related_section(client, "orca")
    assert "vLLM" in orca
    assert re.search(r"Similar: [^<]*batching", orca)


def test_retired_sources_are_neither_related_nor_given_neighbours(
    client: Client, related_catalog: LoadReport
) -> None:
    flash4 = Source.objects.get(slug="flashattention-4")
    flash4.status = Source.Status.RETIRED
    flash4.save()
    recompute_neighbours()
    assert "FlashAttention-4" not in related_section(client, "flashattention-3")
    assert not SourceNeighbour.objects.filter(source=flash4).exists()


def test_co_reading_counts_readers_who_read_it_next(
    client: Client, related_catalog: LoadReport
) -> None:
    first, then = Source.objects.get(slug="roofline"), Source.objects.get(slug="orca")
    now = timezone.now()
    for _ in range(3):
        reader = UserFactory()
        for offset, source in enumerate([first, then]):
            Bookmark.objects.create(
                user=reader,
                source=source,
                status="read",
                finished_at=now + timedelta(minutes=offset),
            )
    recompute_neighbours()
    section = related_section(client, "roofline")
    assert "Orca" in section
    assert "3 readers who finished this read it next" in section


def test_one_reader_alone_never_shows_as_co_reading(
    client: Client, related_catalog: LoadReport
) -> None:
    reader = UserFactory()
    now = timezone.now()
    for offset, slug in enumerate(["roofline", "orca"]):
        Bookmark.objects.create(
            user=reader,
            source=Source.objects.get(slug=slug),
            status="read",
            finished_at=now + timedelta(minutes=offset),
        )
    recompute_neighbours()
    assert "read it next" not in related_section(client, "roofline")


def test_empty_and_one_source_catalogs(client: Client, tiers: Tiers) -> None:
    assert recompute_neighbours() == 0
    only = SourceFactory(slug="lonely", title="Lonely", topics=[TopicFactory()])
    assert recompute_neighbours() == 0
    response = client.get(only.get_absolute_url())
    assert response.status_code == 200
    assert 'id="related-heading"' not in response.content.decode()


def test_two_sources_with_nothing_in_common_are_not_related(tiers: Tiers) -> None:
    SourceFactory(title="Zebra", summary="Stripes.")
    SourceFactory(title="Quasar", summary="Radio.")
    assert recompute_neighbours() == 0


def test_loading_the_catalog_computes_them(
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        load_catalog(read_catalog(), progress=False)
    assert SourceNeighbour.objects.filter(source__slug="flashattention").count() >= 5


def test_a_saved_change_recomputes_them_after_commit(
    tiers: Tiers, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    topic = TopicFactory(name="Kernels")
    with django_capture_on_commit_callbacks(execute=True):
        first = SourceFactory(title="Warp specialised attention", topics=[topic])
        second = SourceFactory(title="Warp specialised matmul", topics=[topic])
    assert SourceNeighbour.objects.filter(source=first).count() == 1
    with django_capture_on_commit_callbacks(execute=True):
        first.title = "Something else entirely"
        first.summary = "Nothing shared."
        first.save()
        first.topics.clear()
    assert not SourceNeighbour.objects.filter(source=first).exists()
    assert not SourceNeighbour.objects.filter(source=second).exists()


def test_a_new_source_enters_the_lists_of_sources_it_resembles(
    related_catalog: LoadReport, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    orca_rows = set(
        SourceNeighbour.objects.filter(source__slug="orca").values_list("pk", flat=True)
    )
    with django_capture_on_commit_callbacks(execute=True):
        added = SourceFactory(
            slug="flashattention-5",
            title="FlashAttention-5",
            aliases="FA5",
            summary="Tiled IO-aware exact attention with warp specialization for the next GPUs.",
            topics=list(Source.objects.get(slug="flashattention-3").topics.all()),
        )
    listing_it = set(
        SourceNeighbour.objects.filter(neighbour=added).values_list("source__slug", flat=True)
    )
    assert SourceNeighbour.objects.filter(source=added).count() >= 5
    assert listing_it & {"flashattention-3", "flashattention-4", "flashattention"}
    # Only the sources it touches were recomputed: the others kept their very rows.
    assert orca_rows == set(
        SourceNeighbour.objects.filter(source__slug="orca").values_list("pk", flat=True)
    )


def test_a_link_check_does_not_recompute(
    tiers: Tiers, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    topic = TopicFactory(name="Kernels")
    with django_capture_on_commit_callbacks(execute=True):
        source = SourceFactory(title="Warp specialised attention", topics=[topic])
        SourceFactory(title="Warp specialised matmul", topics=[topic])
    rows = set(SourceNeighbour.objects.values_list("pk", flat=True))
    assert rows
    with django_capture_on_commit_callbacks(execute=True):
        source.link_status = Source.LinkStatus.OK
        source.save(update_fields=["link_status"])
    assert set(SourceNeighbour.objects.values_list("pk", flat=True)) == rows


def test_a_full_recompute_rewrites_only_the_rows_that_changed(small_catalog: SmallCatalog) -> None:
    recompute_neighbours()
    stored = dict(SourceNeighbour.objects.values_list("pk", "score"))
    assert len(stored) > 1
    tampered = min(stored)
    SourceNeighbour.objects.filter(pk=tampered).update(score=-1.0)
    recompute_neighbours()
    now = dict(SourceNeighbour.objects.values_list("pk", "score"))
    assert tampered not in now
    assert sorted(now.values()) == sorted(stored.values())
    assert {pk: score for pk, score in now.items() if pk in stored} == {
        pk: score for pk, score in stored.items() if pk != tampered
    }


def test_compute_related_command(
    small_catalog: SmallCatalog, capsys: pytest.CaptureFixture[str]
) -> None:
    call_command("compute_related")
    assert "Stored" in capsys.readouterr().out
    assert SourceNeighbour.objects.filter(source__slug="flashattention").exists()


def test_source_page_queries_stay_flat(
    client: Client, many_sources: Grow, django_assert_max_num_queries: DjangoAssertNumQueries
) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    first = many_sources(10)[0]
    recompute_neighbours()
    with CaptureQueriesContext(connection) as small:
        client.get(first.get_absolute_url())
    many_sources(490)
    recompute_neighbours()
    assert SourceNeighbour.objects.filter(source=first).exists()
    with django_assert_max_num_queries(len(small.captured_queries)):
        assert client.get(first.get_absolute_url()).status_code == 200
