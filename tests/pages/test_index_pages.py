"""/topics/, /tiers/ and /lists/: every topic, tier and reading list, with what each holds."""

import re

import pytest
from django.test import Client
from django.test.html import Element, parse_html

from catalog.models import ReadingList, Topic
from tests.factories import (
    ListEntryFactory,
    ListSectionFactory,
    ReadingListFactory,
    SourceFactory,
    TopicFactory,
)
from tests.hints import SmallCatalog, Tiers

pytestmark = pytest.mark.django_db


def page(client: Client, url: str) -> Element:
    response = client.get(url)
    assert response.status_code == 200
    return parse_html(response.content.decode())


def having_class(element: Element, name: str) -> list[Element]:
    """Every element under `element` whose class list holds `name`, in document order."""
    found = []
    for child in element.children:
        if isinstance(child, Element):
            if name in (dict(child.attributes).get("class") or "").split():
                found.append(child)
            found += having_class(child, name)
    return found


def links(element: Element) -> list[str | None]:
    found = [dict(element.attributes)["href"]] if element.name == "a" else []
    for child in element.children:
        if isinstance(child, Element):
            found += links(child)
    return found


def text(element: Element) -> str:
    parts = [c if isinstance(c, str) else text(c) for c in element.children]
    return re.sub(r"\s+", " ", " ".join(parts)).strip()


def headings(root: Element) -> list[str]:
    """Each index entry's heading as its visible text."""
    return [text(h) for h in having_class(root, "index-title")]


def heading_links(root: Element) -> list[str | None]:
    return [href for h in having_class(root, "index-title") for href in links(h)]


def test_topics_nest_sub_topics_under_their_parent_with_published_counts(
    client: Client, small_catalog: SmallCatalog
) -> None:
    attention = small_catalog["topics"][1]
    SourceFactory(slug="old", status="retired", topics=[attention])
    Topic.objects.filter(slug="kernels").update(position=5)
    Topic.objects.filter(slug="serving").update(position=7)
    TopicFactory(slug="unused", name="A topic nobody used", position=6)

    soup = page(client, "/topics/")
    # Top-level topics only, in the curators' order (not the order they were added, nor by
    # count); a topic with no sources still shows.
    assert headings(soup) == ["Kernel engineering 1", "A topic nobody used 0", "Serving 1"]
    kernels_item = having_class(soup, "index-list")[0].children[0]
    [sub] = having_class(kernels_item, "topic-cloud")
    assert links(sub) == ["/topics/attention/"]
    # Two published sources; the retired one is not counted.
    assert text(sub) == "Attention 2"


def test_tiers_show_their_rule_and_how_many_published_sources_they_hold(
    client: Client, small_catalog: SmallCatalog
) -> None:
    SourceFactory(slug="gone", status="retired", tier=small_catalog["flash"].tier)
    soup = page(client, "/tiers/")
    assert headings(soup) == [
        "Start here 3 sources",
        "Core 1 source",
        "Frontier 0 sources",
        "Further reading 0 sources",
    ]
    assert heading_links(soup) == [
        "/tiers/start-here/",
        "/tiers/core/",
        "/tiers/frontier/",
        "/tiers/further-reading/",
    ]


def test_lists_count_each_cited_source_once_in_list_order(
    client: Client, small_catalog: SmallCatalog
) -> None:
    ReadingList.objects.filter(slug="wafer").update(position=10)
    later = ReadingListFactory(slug="appendix", title="Appendix", position=9)
    section = ListSectionFactory(reading_list=later)
    again = ListSectionFactory(reading_list=later, slug="again")
    flash = small_catalog["flash"]
    ListEntryFactory(section=section, source=flash, position=1)
    ListEntryFactory(section=again, source=flash, position=1)  # cited twice, counted once
    ListEntryFactory(section=again, source=SourceFactory(status="retired"), position=2)

    soup = page(client, "/lists/")
    assert headings(soup) == ["Appendix 1 source", "Primary sources 4 sources"]
    assert heading_links(soup) == ["/lists/appendix/", "/lists/wafer/"]


def test_home_and_detail_pages_lead_to_the_indexes(
    client: Client, small_catalog: SmallCatalog
) -> None:
    home = page(client, "/")
    more = {href for element in having_class(home, "panel-more") for href in links(element)}
    assert more == {"/topics/", "/tiers/", "/lists/"}
    for url, index in [
        ("/topics/attention/", "/topics/"),
        ("/tiers/core/", "/tiers/"),
        ("/lists/wafer/", "/lists/"),
    ]:
        crumbs = [
            href for nav in having_class(page(client, url), "breadcrumbs") for href in links(nav)
        ]
        assert index in crumbs, url


def test_names_are_escaped(client: Client, tiers: Tiers) -> None:
    TopicFactory(slug="x", name="<script>alert(1)</script>")
    body = client.get("/topics/").content.decode()
    assert "<script>alert(1)</script>" not in body
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in body
