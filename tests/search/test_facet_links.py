"""Facet links are built once per page, and say exactly what {% querystring %} would."""

import pytest
from django.http import QueryDict
from django.template import Context, Template
from django.utils.html import escape

from search.facets import FacetItem, Facets, query_string
from search.forms import SearchForm

TAG = Template("{% querystring current change page=None %}")


@pytest.mark.parametrize(
    ("current", "change"),
    [
        ("q=flash+attention&topic=a&topic=b&page=3", {"topic": ["a"]}),
        ("q=flash+attention&topic=a", {"topic": ["a", "b"]}),
        ("q=x&tier=core&page=2", {"tier": None}),
        ("q=x", {"tier": "core"}),
        ("", {"year": "2020-2029"}),
        ("q=%E2%80%9Cquoted%E2%80%9D+%26+more&kind=paper", {"kind": None, "topic": ["ü"]}),
        ("topic=a&sort=year", {"topic": []}),
        ("q=a%3Db%23c&list=x", {"list": "y"}),
    ],
)
def test_a_link_is_what_the_querystring_tag_writes(
    current: str, change: dict[str, str | list[str] | None]
) -> None:
    query = QueryDict(current)
    expected = TAG.render(Context({"current": query, "change": change}))
    base = {key: values for key, values in query.lists() if key != "page"}
    assert escape(query_string(base, change)) == expected


def test_every_facet_item_gets_its_link() -> None:
    facets = Facets(
        topics=[FacetItem("a", "A", 3, selected=True, change={"topic": []})],
        tiers=[FacetItem("core", "Core", 2, change={"tier": "core"})],
        kinds=[FacetItem("paper", "Paper", 1, change={"kind": "paper"})],
        lists=[FacetItem("wafer", "Wafer", 1, change={"list": "wafer"})],
        decade_items=[FacetItem("2020-2029", "2020s", 3, change={"year": "2020-2029"})],
    )
    facets.link(SearchForm(QueryDict("q=gemm&topic=a&page=4")).link_base())
    assert [item.href for item in facets.topics] == ["?q=gemm"]
    assert [item.href for item in facets.tiers] == ["?q=gemm&topic=a&tier=core"]
    assert [item.href for item in facets.kinds] == ["?q=gemm&topic=a&kind=paper"]
    assert [item.href for item in facets.lists] == ["?q=gemm&topic=a&list=wafer"]
    assert [item.href for item in facets.decade_items] == ["?q=gemm&topic=a&year=2020-2029"]
