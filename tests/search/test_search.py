"""The /sources/ page: the same behaviour on SQLite and PostgreSQL."""

import re

import pytest
from django.test import Client
from pytest_django import DjangoCaptureOnCommitCallbacks, Settings

from catalog.models import Source
from tests.factories import ListEntryFactory, SourceFactory, TopicFactory
from tests.hints import Grow, Response, SmallCatalog, Tiers

pytestmark = pytest.mark.django_db


def result_slugs(response: Response) -> list[str]:
    html = response.content.decode()
    region = html[html.index('<ol id="results"') :]
    region = region[: region.index("</ol>")]
    return re.findall(r'class="card-title"[^>]*><a href="/sources/([^/]+)/"', region)


def get(client: Client, url: str, status: int = 200, **headers: str) -> Response:
    response = client.get(url, headers=headers)
    assert response.status_code == status, response.content[:500]
    return response


def test_empty_query_lists_the_catalog_in_list_order(
    client: Client, small_catalog: SmallCatalog
) -> None:
    slugs = result_slugs(get(client, "/sources/"))
    assert slugs[:4] == ["scaling-book", "attention-paper", "roofline", "flashattention"]


def result_count(response: Response) -> str:
    html = response.content.decode()
    start = html.index('id="result-count"')
    return " ".join(
        re.sub(
            r"<[^>]+>", " ", html[html.index(">", start) + 1 : html.index("</p>", start)]
        ).split()
    )


def test_the_page_says_which_order_the_default_sort_gives(
    client: Client, small_catalog: SmallCatalog
) -> None:
    browse = get(client, "/sources/")
    assert result_count(browse).endswith("sources, in list order")
    assert '<option value="" selected>Recommended</option>' in browse.content.decode()
    search = get(client, "/sources/?q=attention")
    assert result_count(search).endswith("matching “attention”, best match first")
    assert result_count(get(client, "/sources/?sort=title")).endswith("sources")


def test_every_word_is_required_and_results_link_to_their_pages(
    client: Client, small_catalog: SmallCatalog
) -> None:
    response = get(client, "/sources/?q=flashattention+dao")
    assert result_slugs(response) == ["flashattention"]
    assert 'href="/sources/flashattention/"' in response.content.decode()
    assert "partial matches" not in response.content.decode()


def test_a_word_no_source_has_leaves_the_others_as_labelled_partial_matches(
    client: Client, small_catalog: SmallCatalog
) -> None:
    response = get(client, "/sources/?q=flashattention+nosuchword")
    assert result_slugs(response) == ["flashattention"]
    assert "No source has every word of “flashattention nosuchword”" in response.content.decode()
    assert "closest partial matches" in response.content.decode()


def test_a_query_with_nothing_in_common_with_the_catalog_says_nothing_matches(
    client: Client, small_catalog: SmallCatalog
) -> None:
    html = get(client, "/sources/?q=nosuchword+otherword").content.decode()
    assert "No sources match “nosuchword otherword”" in html
    assert "partial matches" not in html
    assert '<a href="/propose/?title=nosuchword%20otherword">' in html


def test_title_matches_rank_above_summary_matches(client: Client, tiers: Tiers) -> None:
    SourceFactory(slug="mentions", title="A survey", summary="Covers the roofline model.")
    SourceFactory(slug="named", title="Roofline", summary="A performance model.")
    assert result_slugs(get(client, "/sources/?q=roofline"))[:2] == ["named", "mentions"]


def test_authors_aliases_and_topic_names_are_searched(
    client: Client, small_catalog: SmallCatalog
) -> None:
    assert result_slugs(get(client, "/sources/?q=Dao")) == ["flashattention"]
    assert result_slugs(get(client, "/sources/?q=FA1")) == ["flashattention"]
    assert "scaling-book" in result_slugs(get(client, "/sources/?q=serving"))


def test_snippet_marks_the_matched_words_and_escapes_the_data(client: Client, tiers: Tiers) -> None:
    SourceFactory(
        slug="xss",
        title="Kernel fusion",
        summary='When x < y & z, <b>fusion</b> keeps <script>alert("x")</script> in registers.',
    )
    html = get(client, "/sources/?q=registers").content.decode()
    snippet = html[html.index('<p class="snippet">') :]
    snippet = snippet[: snippet.index("</p>")]
    assert "<mark>registers</mark>" in snippet
    assert "y &amp; z" in snippet
    assert "<script>" not in snippet and "<b>" not in snippet


def test_htmx_request_gets_only_the_results_region(
    client: Client, small_catalog: SmallCatalog
) -> None:
    response = get(client, "/sources/?q=flashattention", HX_Request="true")
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="results-region"')
    assert 'id="q-input"' not in html  # the box keeps focus: it is never swapped
    assert "HX-Request" in response["Vary"]
    full = get(client, "/sources/?q=flashattention").content.decode()
    assert 'id="q-input"' in full and 'value="flashattention"' in full
    assert "hx-push-url" in full and "hx-sync" in full and "data-search-box" in full


def test_facets_count_the_current_results_and_narrow_them(
    client: Client, small_catalog: SmallCatalog
) -> None:
    html = get(client, "/sources/?q=attention").content.decode()
    facets = html[html.index('class="facets"') :]
    assert re.search(r"Attention</span> <span class=\"count\">2</span>", facets)
    assert "?q=attention&amp;tier=core" in facets
    narrowed = get(client, "/sources/?q=attention&tier=core")
    assert result_slugs(narrowed) == ["flashattention"]
    assert "Tier: Core" in narrowed.content.decode()  # a removable chip


def test_topics_combine_and_include_subtopics(client: Client, small_catalog: SmallCatalog) -> None:
    assert set(result_slugs(get(client, "/sources/?topic=kernels"))) == {
        "roofline",
        "attention-paper",
        "flashattention",
    }
    both = get(client, "/sources/?topic=kernels&topic=attention")
    assert set(result_slugs(both)) == {"attention-paper", "flashattention"}
    html = both.content.decode()
    # Removing one topic chip keeps the other.
    assert "?topic=attention" in html and "Topic: Kernel engineering" in html


def test_kind_list_and_year_filters(
    client: Client, small_catalog: SmallCatalog, tiers: Tiers
) -> None:
    SourceFactory(slug="old-book", title="An old book", kind=Source.Kind.BOOK, year=1999)
    assert result_slugs(get(client, "/sources/?kind=book")) == ["old-book"]
    assert set(result_slugs(get(client, "/sources/?list=wafer"))) == {
        "scaling-book",
        "attention-paper",
        "roofline",
        "flashattention",
    }
    assert result_slugs(get(client, "/sources/?year=2017")) == ["attention-paper"]
    assert result_slugs(get(client, "/sources/?year=1990-1999")) == ["old-book"]
    assert set(result_slugs(get(client, "/sources/?year=2022-2017"))) == {
        "attention-paper",
        "flashattention",
    }


def test_year_chart_and_decades_are_drawn_from_the_results(
    client: Client, small_catalog: SmallCatalog
) -> None:
    html = get(client, "/sources/?topic=attention").content.decode()
    chart = html[html.index("<svg") : html.index("</svg>")]
    assert chart.count("<rect") == 2  # 2017 and 2022
    assert "style=" not in chart  # strict CSP: geometry is in SVG attributes
    assert "2017: 1 source" in chart
    assert "?topic=attention&amp;year=2017" in chart
    assert "2010s" in html and "2020s" in html


def test_facet_links_escape_their_labels_and_mark_the_chosen_ones(
    client: Client, small_catalog: SmallCatalog
) -> None:
    odd = TopicFactory(slug="odd", name="<b>Odd</b> & co")
    SourceFactory(slug="odd-one", title="Odd one", year=2017, topics=[odd])
    html = get(client, "/sources/?topic=odd&year=2017").content.decode()
    assert (
        '<li><a href="?year=2017" class="is-selected" aria-current="true">'
        '<span class="facet-label">&lt;b&gt;Odd&lt;/b&gt; &amp; co</span> '
        '<span class="count">1</span>'
        '<span class="visually-hidden"> (selected; click to remove)</span></a></li>'
    ) in html
    assert '<a href="?topic=odd&amp;year=2017"><rect class="bar is-selected"' in html
    assert "<title>2017: 1 source</title>" in html


def test_sorting(client: Client, small_catalog: SmallCatalog) -> None:
    assert result_slugs(get(client, "/sources/?sort=title"))[:2] == [
        "attention-paper",
        "flashattention",
    ]
    by_year = result_slugs(get(client, "/sources/?sort=year"))
    assert by_year[-2:] == ["flashattention", "attention-paper"]
    newest = ListEntryFactory(source__slug="newest", source__title="Zeta").source
    assert result_slugs(get(client, "/sources/?sort=newest"))[0] == newest.slug
    # Relevance without a query falls back to list order; an unknown sort is ignored.
    assert result_slugs(get(client, "/sources/?sort=relevance"))[0] == "scaling-book"
    assert result_slugs(get(client, "/sources/?sort=DROP+TABLE"))[0] == "scaling-book"


def test_no_results_suggest_close_titles_and_clear_filters(
    client: Client, small_catalog: SmallCatalog
) -> None:
    html = get(client, "/sources/?q=flashatention&tier=start-here").content.decode()
    assert "No sources match" in html
    assert "Did you mean" in html
    assert 'href="/sources/flashattention/"' in html
    assert 'href="?q=flashatention"' in html  # clear filters keeps the words


@pytest.mark.parametrize(
    "q",
    [
        "a" * 10_000,
        "flash\x00attention",
        '"unbalanced quote',
        "&|!:*()",
        "'; DROP TABLE catalog_source; --",
        "a:* & !b | (c",
        "\\",
        "<script>alert(1)</script>",
        "-",
        "or or or",
        "🙂 émigré",
    ],
)
def test_odd_queries_never_fail(client: Client, small_catalog: SmallCatalog, q: str) -> None:
    response = client.get("/sources/", {"q": q})
    assert response.status_code == 200
    assert "<script>alert(1)" not in response.content.decode()
    assert Source.objects.count() == 4


def test_overlong_query_is_cut_and_the_reader_told(
    client: Client, small_catalog: SmallCatalog
) -> None:
    html = client.get("/sources/", {"q": "roofline " + "x" * 10_000}).content.decode()
    assert "cut to its first 200 characters" in html


def test_nul_bytes_are_stripped(client: Client, small_catalog: SmallCatalog) -> None:
    response = client.get("/sources/", {"q": "flash\x00attention"})
    assert response.status_code == 200
    assert "\x00" not in response.content.decode()


def test_unknown_slugs_say_so_and_show_results(client: Client, small_catalog: SmallCatalog) -> None:
    html = get(
        client, "/sources/?topic=nope&tier=nope&list=nope&kind=nope&sort=%00"
    ).content.decode()
    for noun in ["topic", "tier", "reading list", "kind"]:
        assert f"There is no {noun} “nope”" in html
    assert len(result_slugs(get(client, "/sources/?topic=nope"))) == 4


def test_page_past_the_end_shows_the_last_page(
    client: Client, many_sources: Grow, settings: Settings
) -> None:
    settings.CATALOG_PAGE_SIZE = 5
    many_sources(12)
    response = get(client, "/sources/?page=999")
    assert "Page 3 of 3" in response.content.decode()
    assert "There is no page 999" in response.content.decode()
    assert len(result_slugs(get(client, "/sources/?page=abc"))) == 5


@pytest.mark.parametrize("year", ["abc", "20x1", "1800", "2020-abc", "9999"])
def test_malformed_year_is_a_400_with_a_helpful_page(
    client: Client, small_catalog: SmallCatalog, year: str
) -> None:
    response = get(client, f"/sources/?q=attention&year={year}", status=400)
    html = response.content.decode()
    assert "is not a year" in html or "Years run from 1900 to 2100" in html
    assert 'value="attention"' in html  # nothing the reader typed is lost
    assert len(result_slugs(response)) == 2


def test_nav_search_submits_to_the_search_page(client: Client, small_catalog: SmallCatalog) -> None:
    html = get(client, "/").content.decode()
    assert 'action="/sources/"' in html and 'name="q"' in html


def test_search_document_follows_topic_changes(
    client: Client,
    small_catalog: SmallCatalog,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    # Committed writes also refresh the anonymous page cache; run those hooks as a commit would.
    with django_capture_on_commit_callbacks(execute=True):
        source = SourceFactory(slug="late", title="Late arrival")
        ListEntryFactory(source=source)
        topic = TopicFactory(slug="collectives", name="Collectives")
        source.topics.add(topic)
    assert result_slugs(get(client, "/sources/?q=collectives")) == ["late"]
    with django_capture_on_commit_callbacks(execute=True):
        topic.name = "Interconnects"
        topic.save()
    assert result_slugs(get(client, "/sources/?q=interconnects")) == ["late"]
    assert result_slugs(get(client, "/sources/?q=collectives")) == []
    with django_capture_on_commit_callbacks(execute=True):
        source.topics.remove(topic)
    assert result_slugs(get(client, "/sources/?q=interconnects")) == []


def test_retired_sources_are_not_found(client: Client, small_catalog: SmallCatalog) -> None:
    small_catalog["flash"].status = Source.Status.RETIRED
    small_catalog["flash"].save()
    assert result_slugs(get(client, "/sources/?q=flashattention")) == []


def test_relevance_pages_follow_one_another_and_past_the_end_is_the_last(
    client: Client, many_sources: Grow, settings: Settings
) -> None:
    # On PostgreSQL the facet statement also picks the page; every page must continue the last.
    settings.CATALOG_PAGE_SIZE = 4
    for n, source in enumerate(many_sources(10)):
        source.title = f"Kernel fusion {'kernel ' * (n % 3)}study {n}"
        source.save()
    pages = [result_slugs(get(client, f"/sources/?q=kernel&page={n}")) for n in (1, 2, 3)]
    slugs = [slug for page in pages for slug in page]
    assert [len(page) for page in pages] == [4, 4, 2]
    assert len(set(slugs)) == 10
    assert result_slugs(get(client, "/sources/?q=kernel&page=9")) == pages[2]
