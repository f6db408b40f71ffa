"""What search engines and chat link previews read from a page's <head>."""

from html.parser import HTMLParser

import pytest
from django.test import Client

from tests.factories import SourceFactory
from tests.hints import SmallCatalog, Tiers


class _Meta(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.meta: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        key, content = values.get("property") or values.get("name"), values.get("content")
        if tag == "meta" and key and content is not None:
            self.meta[key] = content


def meta(client: Client, url: str) -> dict[str, str]:
    response = client.get(url)
    assert response.status_code == 200
    parser = _Meta()
    parser.feed(response.content.decode())
    return parser.meta


@pytest.mark.django_db
def test_a_source_page_previews_as_its_title_and_summary(
    client: Client, small_catalog: SmallCatalog
) -> None:
    tags = meta(client, "/sources/flashattention/")
    flash = small_catalog["flash"]
    assert tags["og:title"] == flash.title
    assert tags["og:description"] == tags["description"] == flash.summary
    assert tags["og:url"] == "http://testserver/sources/flashattention/"
    assert tags["og:site_name"] == "readinglist"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("url", "title"),
    [
        ("/topics/kernels/", "Kernel engineering"),
        ("/lists/wafer/", "Primary sources"),
        ("/tiers/core/", "core"),
        ("/proposals/decisions/", "Decision log"),
        ("/", "readinglist"),
    ],
)
def test_catalog_pages_preview_as_themselves(
    client: Client, small_catalog: SmallCatalog, url: str, title: str
) -> None:
    tags = meta(client, url)
    assert tags["og:title"].lower() == title.lower()
    assert tags["og:description"] == tags["description"]
    assert tags["og:description"]


@pytest.mark.django_db
def test_preview_text_is_escaped_and_kept_short(client: Client, tiers: Tiers) -> None:
    SourceFactory(
        slug="odd",
        title='A "quoted" <b>title</b>',
        summary="<script>alert(1)</script> " + "long " * 200,
        tier=tiers["core"],
    )
    html = client.get("/sources/odd/").content.decode()
    assert "<script>alert(1)" not in html
    tags = meta(client, "/sources/odd/")
    assert tags["og:title"] == 'A "quoted" <b>title</b>'  # escaped in the HTML, intact when read
    assert len(tags["og:description"]) <= 300
