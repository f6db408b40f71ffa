"""“Add to path…” under the source cards of the home page, a source's related sources, My library
and For you, as under the topic, tier and search cards: a POST of the source to /paths/add/."""

import re
from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from catalog.models import Source
from catalog.related.models import SourceNeighbour
from library.models import Bookmark
from tests.hints import SmallCatalog
from tests.paths.conftest import MakePath

pytestmark = pytest.mark.django_db

FORM = re.compile(
    r'<form class="card-add-to-path" method="post" action="/paths/add/">'
    r'<input type="hidden" name="csrfmiddlewaretoken" value="[^"]+">'
    r'<input type="hidden" name="source" value="(?P<slug>[-\w]+)">'
)


def offered(html: str) -> set[str]:
    return {match["slug"] for match in FORM.finditer(html)}


def related_to_flash(small_catalog: SmallCatalog) -> tuple[str, Source]:
    flash, roofline = small_catalog["flash"], small_catalog["path"][2]
    SourceNeighbour.objects.create(
        source=flash, neighbour=roofline, rank=1, score=1.0, reason_kind="section"
    )
    return flash.get_absolute_url(), roofline


def bookmarked(small_catalog: SmallCatalog, author: User | None) -> tuple[str, Source]:
    assert author is not None  # My library is a reader's page only
    Bookmark.objects.create(user=author, source=small_catalog["flash"], status="reading")
    return reverse("library:index"), small_catalog["flash"]


# Where a card is shown: the page's URL and the source whose card it shows, for a reader (or None).
Surface = Callable[[SmallCatalog, User | None], tuple[str, Source]]

SURFACES: dict[str, Surface] = {
    "home": lambda catalog, author: ("/", catalog["flash"]),
    "related sources": lambda catalog, author: related_to_flash(catalog),
    "my library": bookmarked,
    "for you": lambda catalog, author: (reverse("library:for-you"), catalog["path"][0]),
}


@pytest.mark.parametrize("surface", SURFACES)
def test_each_card_offers_add_to_path_to_a_reader_with_a_path(
    client: Client,
    author: User,
    make_path: MakePath,
    small_catalog: SmallCatalog,
    render_every_time: None,
    surface: str,
) -> None:
    path = make_path(1, title="Attention kernels")
    url, source = SURFACES[surface](small_catalog, author)
    client.force_login(author)
    html = client.get(url).content.decode()
    assert source.slug in offered(html)
    # The form posts the source; the reader picks the path on the next page.
    chooser = client.post(reverse("paths:add-source"), {"source": source.slug})
    assert f'<option value="{path.key}">Attention kernels</option>' in chooser.content.decode()
    client.post(reverse("paths:add-source"), {"source": source.slug, "to": path.key})
    assert path.steps.filter(source=source).exists()


@pytest.mark.parametrize("surface", ["home", "related sources"])
def test_visitors_are_offered_no_path_form(
    client: Client, small_catalog: SmallCatalog, render_every_time: None, surface: str
) -> None:
    url, _ = SURFACES[surface](small_catalog, None)
    html = client.get(url).content.decode()
    assert "card-add-to-path" not in html


@pytest.mark.parametrize("surface", SURFACES)
def test_a_reader_without_paths_is_offered_none(
    client: Client, author: User, small_catalog: SmallCatalog, render_every_time: None, surface: str
) -> None:
    url, _ = SURFACES[surface](small_catalog, author)
    client.force_login(author)
    assert "card-add-to-path" not in client.get(url).content.decode()
