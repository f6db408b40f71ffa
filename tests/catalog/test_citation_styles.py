"""References formatted in a citation style: the source's "Cite" page, the disclosure on its page,
and the library's "Cite in a style" page."""

import datetime
import html
import json

import bibtexparser
import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from catalog.citation_styles import STYLES, format_references
from catalog.citations import to_bibtex, to_csl
from catalog.models import Source
from library.models import Bookmark
from tests.factories import SourceFactory
from tests.hints import Tiers


@pytest.fixture
def paper(tiers: Tiers) -> Source:
    return SourceFactory(
        title="Attention Is All You Need",
        authors="Ashish Vaswani, Noam Shazeer, and Niki Parmar",
        venue="NeurIPS",
        year=2017,
        url="https://arxiv.org/abs/1706.03762",
        tier=tiers["core"],
    )


@pytest.fixture
def repository(tiers: Tiers) -> Source:
    return SourceFactory(
        kind=Source.Kind.REPOSITORY,
        title="PyTorch",
        authors="PyTorch Foundation",
        venue="",
        year=2016,
        url="https://github.com/pytorch/pytorch",
        verified_on=datetime.date(2025, 3, 1),
        tier=tiers["core"],
    )


@pytest.fixture
def book(tiers: Tiers) -> Source:
    return SourceFactory(
        kind=Source.Kind.BOOK,
        title="Deep Learning",
        authors="Ian Goodfellow, Yoshua Bengio, and Aaron Courville",
        venue="The MIT Press",
        year=2016,
        isbn="9780262035613",
        url="",
        tier=tiers["core"],
    )


# What each style makes of the first author: its family name in every style, written whole.
FAMILY = {"paper": "Vaswani", "repository": "PyTorch Foundation", "book": "Goodfellow"}
TITLE = {"paper": "Attention Is All You Need", "repository": "PyTorch", "book": "Deep Learning"}
YEAR = {"paper": "2017", "repository": "2016", "book": "2016"}


@pytest.mark.django_db
@pytest.mark.parametrize("style", list(STYLES))
@pytest.mark.parametrize("kind", ["paper", "repository", "book"])
def test_each_style_names_authors_title_and_year(
    request: pytest.FixtureRequest, style: str, kind: str
) -> None:
    source = request.getfixturevalue(kind)
    [reference] = format_references([source], STYLES[style])
    for part in (FAMILY[kind], TITLE[kind], YEAR[kind]):
        assert part.lower() in reference.text.lower(), (style, reference.text)
    assert "<" not in reference.text
    assert html.unescape(reference.html).count(FAMILY[kind]) >= 1


@pytest.mark.django_db
def test_styles_differ_the_way_their_manuals_say(paper: Source, book: Source) -> None:
    apa = format_references([paper], STYLES["apa"])[0].text
    ieee = format_references([paper], STYLES["ieee"])[0].text
    acm = format_references([paper], STYLES["acm"])[0].text
    chicago = format_references([book], STYLES["chicago"])[0].text
    assert apa.startswith("Vaswani, A., Shazeer, N., & Parmar, N. (2017).")
    assert ieee.startswith("[1] A. Vaswani, N. Shazeer, and N. Parmar, “Attention Is All You Need”")
    assert acm.startswith("[1] Ashish Vaswani, Noam Shazeer, and Niki Parmar. 2017.")
    assert chicago.startswith("Goodfellow, I")
    assert "2016. Deep Learning. The MIT Press." in chicago
    # The title is in italics in the HTML, not in the text.
    assert "<i>Deep Learning</i>" in format_references([book], STYLES["chicago"])[0].html


@pytest.mark.django_db
def test_user_text_is_escaped_in_the_html_and_whole_in_the_text(tiers: Tiers) -> None:
    source = SourceFactory(
        kind=Source.Kind.BOOK,
        title='Rock & roll <script>alert("x")</script>',
        authors="Ann <b>Bold</b>",
        venue="M&M <Press>",
        year=2020,
        tier=tiers["core"],
    )
    for style in STYLES.values():
        [reference] = format_references([source], style)
        assert "<script>" not in reference.html
        assert "<b>" not in reference.html
        assert "&lt;script&gt;" in reference.html
        assert "<script>" in reference.text
        assert "M&M <Press>" in reference.text


@pytest.mark.django_db
def test_many_references_keep_the_order_given(
    paper: Source, repository: Source, book: Source
) -> None:
    texts = [ref.text for ref in format_references([book, paper, repository], STYLES["ieee"])]
    assert texts[0].startswith("[1] I. Goodfellow")
    assert texts[1].startswith("[2] A. Vaswani")
    assert texts[2].startswith("[3] PyTorch Foundation")


@pytest.mark.django_db
class TestSourceCitePage:
    def test_source_page_links_to_each_style_and_shows_apa_ready_to_copy(
        self, client: Client, paper: Source
    ) -> None:
        page = client.get(paper.get_absolute_url()).content.decode()
        address = reverse("catalog:source-cite-style", args=[paper.slug])
        assert "cite" in address
        for style in ("ieee", "acm", "chicago"):
            assert f'href="{address}?style={style}"' in page
        assert 'id="cite-text" class="cite-text" readonly' in page
        assert "Vaswani, A., Shazeer, N., &amp; Parmar, N. (2017)." in page
        assert 'data-copy="cite-text"' in page

    @pytest.mark.parametrize("style", list(STYLES))
    def test_the_cite_page_shows_the_chosen_style_as_text(
        self, client: Client, paper: Source, style: str
    ) -> None:
        url = reverse("catalog:source-cite-style", args=[paper.slug])
        response = client.get(url, {"style": style})
        assert response.status_code == 200
        page = response.content.decode()
        text = format_references([paper], STYLES[style])[0].text
        assert html.escape(text, quote=False) in page
        assert f'<option value="{style}" selected>' in page
        assert f'<h2 id="reference-heading">{html.escape(STYLES[style].label)}</h2>' in page

    def test_an_unknown_style_falls_back_to_apa(self, client: Client, paper: Source) -> None:
        url = reverse("catalog:source-cite-style", args=[paper.slug])
        page = client.get(url, {"style": "<nope>"}).content.decode()
        assert '<option value="apa" selected>' in page
        assert "&lt;nope&gt;" not in page and "<nope>" not in page

    def test_missing_source_is_404(self, client: Client, tiers: Tiers) -> None:
        url = reverse("catalog:source-cite-style", args=["nothing-here"])
        assert client.get(url).status_code == 404

    def test_hostile_title_is_escaped_on_the_page(self, client: Client, tiers: Tiers) -> None:
        source = SourceFactory(title="<img src=x onerror=alert(1)>", tier=tiers["core"])
        for url in (
            source.get_absolute_url(),
            reverse("catalog:source-cite-style", args=[source.slug]),
        ):
            page = client.get(url).content.decode()
            assert "<img src=x" not in page


@pytest.mark.django_db
class TestLibraryCitePage:
    def test_anonymous_visitors_are_sent_to_log_in(self, client: Client) -> None:
        response = client.get(reverse("library:export-cite"))
        assert response.status_code == 302
        assert "login" in response["Location"]

    def test_the_reader_s_sources_only_in_the_style_and_by_status(
        self,
        client: Client,
        signed_in: Client,
        reader: User,
        other_reader: User,
        paper: Source,
        book: Source,
        repository: Source,
    ) -> None:
        Bookmark.objects.create(user=reader, source=paper, status="read")
        Bookmark.objects.create(user=reader, source=book, status="to_read")
        Bookmark.objects.create(user=other_reader, source=repository)
        url = reverse("library:export-cite")
        page = client.get(url, {"style": "ieee"}).content.decode()
        assert "A. Vaswani" in page and "I. Goodfellow" in page
        assert "PyTorch" not in page
        read_only = client.get(url, {"style": "ieee", "status": "read"}).content.decode()
        assert "A. Vaswani" in read_only and "Goodfellow" not in read_only
        assert '<option value="read" selected>' in read_only

    def test_export_page_links_to_it(self, client: Client, signed_in: Client) -> None:
        page = client.get(reverse("library:export-index")).content.decode()
        assert reverse("library:export-cite") in page


@pytest.mark.django_db
def test_bibtex_and_csl_stay_valid_beside_the_styles(
    paper: Source, repository: Source, book: Source
) -> None:
    sources = [paper, repository, book]
    library = bibtexparser.parse_string(to_bibtex(sources))
    assert library.failed_blocks == []
    assert len(library.entries) == 3
    items = json.loads(json.dumps(to_csl(sources)))
    assert [item["type"] for item in items] == ["paper-conference", "software", "book"]
    assert items[2]["ISBN"] == "9780262035613"
