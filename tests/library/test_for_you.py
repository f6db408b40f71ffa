""" "For you": recommendations from the reader's library, each explained."""

from collections.abc import Sequence

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from catalog.models import Source
from catalog.services import LoadReport
from library.models import Bookmark
from library.recommendations import Pick, recommendations_for
from tests.hints import Grow, SmallCatalog, Tiers

pytestmark = pytest.mark.django_db


def finish(reader: User, *slugs: object) -> None:
    for slug in slugs:
        Bookmark.objects.create(user=reader, source=Source.objects.get(slug=slug), status="read")


def topics_of(picks: Sequence[Pick]) -> list[set[str]]:
    return [{t.slug for t in pick.source.topics.all()} for pick in picks]


def test_a_flashattention_reader_gets_attention_kernels(
    client: Client, reader: User, full_catalog: LoadReport
) -> None:
    finish(reader, "flashattention", "flashattention-2", "flashattention-3")
    top = recommendations_for(reader).picks[:5]
    assert sum("attention" in topics for topics in topics_of(top)) >= 3
    assert "flashattention-4" in [pick.source.slug for pick in top]
    client.force_login(reader)
    html = client.get("/library/for-you/").content.decode()
    assert "FlashAttention-4" in html
    assert "Because you read FlashAttention" in html


def test_a_serving_reader_gets_serving_sources(reader: User, full_catalog: LoadReport) -> None:
    finish(reader, "orca", "pagedattention", "sarathi-serve")
    top = recommendations_for(reader).picks[:5]
    assert sum(bool({"serving", "kv-cache"} & topics) for topics in topics_of(top)) >= 4
    assert "vllm" in [pick.source.slug for pick in top]


def test_saved_sources_are_never_recommended(reader: User, full_catalog: LoadReport) -> None:
    finish(reader, "flashattention", "flashattention-2")
    Bookmark.objects.create(
        user=reader, source=Source.objects.get(slug="flashattention-3"), status="to_read"
    )
    picks = recommendations_for(reader).picks
    slugs = [pick.source.slug for pick in picks]
    assert not {"flashattention", "flashattention-2", "flashattention-3"} & set(slugs)
    assert picks and all(p.because.startswith("Because you ") for p in picks)


def test_a_new_reader_gets_the_next_start_here_steps(
    client: Client, reader: User, small_catalog: SmallCatalog
) -> None:
    Bookmark.objects.create(user=reader, source=small_catalog["path"][0], status="read")
    client.force_login(reader)
    html = client.get("/library/for-you/").content.decode()
    assert "next steps of the Start-here path" in html
    assert "Attention Is All You Need" in html and "Roofline" in html
    assert "How to Scale Your Model" not in html  # already finished
    assert "Start here, step 2" in html


def test_for_you_on_an_empty_catalog(client: Client, reader: User, tiers: Tiers) -> None:
    client.force_login(reader)
    response = client.get("/library/for-you/")
    assert response.status_code == 200


def test_for_you_needs_a_login(client: Client) -> None:
    response = client.get("/library/for-you/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_for_you_queries_do_not_grow_with_the_library(
    client: Client, reader: User, many_sources: Grow
) -> None:
    sources = many_sources(60)
    client.force_login(reader)
    for source in sources[:5]:
        Bookmark.objects.create(user=reader, source=source, status="read")
    client.get("/library/for-you/")
    with CaptureQueriesContext(connection) as few:
        client.get("/library/for-you/")
    for source in sources[5:50]:
        Bookmark.objects.create(user=reader, source=source, status="read")
    with CaptureQueriesContext(connection) as many:
        client.get("/library/for-you/")
    assert len(many.captured_queries) <= len(few.captured_queries)
