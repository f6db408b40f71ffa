"""“Add to path…” on a source's page: a plain POST form under /paths/, offered to a signed-in
reader with the paths they may edit, read once per page."""

from html import unescape

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import User
from catalog.models.sources import Source
from paths.models import PathStep
from tests.factories import SourceFactory
from tests.hints import Tiers
from tests.paths.conftest import MakePath

pytestmark = pytest.mark.django_db


@pytest.fixture
def source(tiers: Tiers) -> Source:
    return SourceFactory(slug="flash-attention", title="FlashAttention", tier=tiers["core"])


def test_a_reader_without_paths_is_offered_to_start_one(
    client: Client, author: User, source: Source, render_every_time: None
) -> None:
    client.force_login(author)
    html = client.get(source.get_absolute_url()).content.decode()
    assert 'href="/paths/">Start a path</a>' in html
    assert 'action="/paths/add/"' not in html


def test_visitors_see_no_path_form(client: Client, source: Source, render_every_time: None) -> None:
    html = client.get(source.get_absolute_url()).content.decode()
    assert 'action="/paths/add/"' not in html and "Start a path" not in html


def test_the_form_offers_each_editable_path_and_its_sections(
    client: Client, author: User, make_path: MakePath, source: Source, render_every_time: None
) -> None:
    one = make_path(1, title="Single part")
    two = make_path(2, sections=2, title="Two parts")
    client.force_login(author)
    html = client.get(source.get_absolute_url()).content.decode()
    assert 'method="post" action="/paths/add/"' in html
    assert f'<option value="{one.key}">Single part</option>' in html
    assert '<optgroup label="Two parts">' in html
    part_two = two.sections.get(title="Part 2")
    assert f'value="{two.key}:{part_two.pk}">Part 2</option>' in html

    response = client.post(
        reverse("paths:add-source"), {"source": source.slug, "to": f"{two.key}:{part_two.pk}"}
    )
    step = PathStep.objects.get(path=two, source=source)
    assert step.section == part_two
    assert response["Location"] == f"{two.get_absolute_url()}#step-{step.pk}"

    again = client.post(
        reverse("paths:add-source"), {"source": source.slug, "to": two.key}, follow=True
    )
    assert "“FlashAttention” is already on this path." in unescape(again.content.decode())


def test_the_source_page_reads_the_readers_paths_in_constant_queries(
    client: Client, author: User, make_path: MakePath, source: Source, render_every_time: None
) -> None:
    client.force_login(author)
    # One visit first: the header's unread count is cached after it, as on every later page.
    client.get(source.get_absolute_url())
    counts = []
    for extra in (1, 20):
        for n in range(extra):
            make_path(1, sections=2, title=f"Path {extra}-{n}")
        with CaptureQueriesContext(connection) as queries:
            assert client.get(source.get_absolute_url()).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_a_path_the_reader_cannot_edit_is_never_changed(
    client: Client, other_reader: User, make_path: MakePath, source: Source
) -> None:
    path = make_path(1)
    client.force_login(other_reader)
    response = client.post(reverse("paths:add-source"), {"source": source.slug, "to": path.key})
    assert response["Location"] == f"{source.get_absolute_url()}#add-to-path"
    assert path.steps.count() == 1


def test_cards_offer_add_to_path_and_the_reader_chooses_the_path_next(
    client: Client, author: User, make_path: MakePath, source: Source, render_every_time: None
) -> None:
    path = make_path(1, title="Attention kernels")
    client.force_login(author)
    html = client.get(source.tier.get_absolute_url()).content.decode()
    assert 'class="card-add-to-path" method="post" action="/paths/add/"' in html
    assert f'name="source" value="{source.slug}"' in html
    chooser = client.post(reverse("paths:add-source"), {"source": source.slug})
    assert chooser.status_code == 200
    assert f'<option value="{path.key}">Attention kernels</option>' in chooser.content.decode()
    client.post(reverse("paths:add-source"), {"source": source.slug, "to": path.key})
    assert path.steps.filter(source=source).exists()


def test_cards_offer_nothing_to_a_reader_without_paths(
    client: Client, author: User, source: Source, render_every_time: None
) -> None:
    client.force_login(author)
    html = client.get(source.tier.get_absolute_url()).content.decode()
    assert "card-add-to-path" not in html
