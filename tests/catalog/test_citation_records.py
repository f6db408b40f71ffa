"""Citations carry the full record: the full title with the short one beside it, every author,
the DOI, the arXiv eprint and the ISBN; every item of the shipped catalog parses in bibtexparser
2 and renders in citeproc-py with its whole author list."""

import io
from pathlib import Path
from typing import cast

import bibtexparser
import citeproc
import pytest
from citeproc import (
    Citation,
    CitationItem,
    CitationStylesBibliography,
    CitationStylesStyle,
    formatter,
)
from citeproc.source.json import CiteProcJSON
from django.core.management import call_command

from catalog.catalog_file import DEFAULT_CATALOG
from catalog.citations import parse_authors, to_bibtex, to_csl
from catalog.models import Source
from tests.factories import SourceFactory
from tests.hints import Tiers

pytestmark = pytest.mark.django_db

AUTHORS = "Ashish Vaswani, Noam Shazeer, Niki Parmar, Jakob Uszkoreit, Llion Jones"


@pytest.fixture
def transformer(tiers: Tiers) -> Source:
    return SourceFactory(
        slug="transformer",
        title="Transformer",
        full_title="Attention Is All You Need",
        authors=AUTHORS,
        venue="NeurIPS",
        year=2017,
        kind="paper",
        url="https://papers.nips.cc/paper/7181-attention-is-all-you-need.pdf",
        arxiv_id="1706.03762",
        doi="10.5555/3295222.3295349",
        tier=tiers["core"],
    )


def test_bibtex_has_full_title_short_title_doi_and_eprint(transformer: Source) -> None:
    entry = bibtexparser.parse_string(to_bibtex([transformer])).entries[0]
    values = {key: field.value for key, field in entry.fields_dict.items()}
    assert values["title"] == "{Attention Is All You Need}"
    assert values["shorttitle"] == "{Transformer}"
    assert values["doi"] == "10.5555/3295222.3295349"
    assert (values["eprint"], values["archivePrefix"]) == ("1706.03762", "arXiv")
    assert values["author"].count(" and ") == 4 and "others" not in values["author"]


def test_csl_has_doi_url_short_title_and_every_author(transformer: Source) -> None:
    item = to_csl([transformer])[0]
    assert item["title"] == "Attention Is All You Need"
    assert item["title-short"] == "Transformer"
    assert item["DOI"] == "10.5555/3295222.3295349"
    assert item["URL"] == transformer.url
    assert [a["family"] for a in cast(list[dict[str, str]], item["author"])] == [
        "Vaswani",
        "Shazeer",
        "Parmar",
        "Uszkoreit",
        "Jones",
    ]


def test_a_book_carries_its_isbn(tiers: Tiers) -> None:
    book = SourceFactory(kind="book", title="PMPP", isbn="9780323912310", tier=tiers["core"])
    assert "isbn = {9780323912310}" in to_bibtex([book])
    assert to_csl([book])[0]["ISBN"] == "9780323912310"


def test_a_long_list_ending_with_and_others_keeps_every_named_author() -> None:
    people, and_others = parse_authors("Ada Lovelace, Charles Babbage, Alan Turing, and others")
    assert [p.family for p in people] == ["Lovelace", "Babbage", "Turing"]
    assert and_others


def _full_author_style(tmp_path: Path) -> CitationStylesStyle:
    """The bundled style, with its et-al abbreviation turned off so every name is printed."""
    bundled = Path(citeproc.__file__).parent / "data" / "styles" / "harvard-cite-them-right.csl"
    text = bundled.read_text().replace('et-al-min="4"', 'et-al-min="1000"')
    path = tmp_path / "full-authors.csl"
    path.write_text(text)
    return CitationStylesStyle(str(path), validate=False)


def test_every_catalog_item_parses_and_renders_with_its_full_author_list(tmp_path: Path) -> None:
    call_command("load_catalog", str(DEFAULT_CATALOG), stdout=io.StringIO(), stderr=io.StringIO())
    sources = list(Source.objects.order_by("slug"))
    library = bibtexparser.parse_string(to_bibtex(sources))
    assert library.failed_blocks == []
    assert len(library.entries) == len(sources)
    papers = [s for s in sources if s.kind == Source.Kind.PAPER]
    with_ids = {
        e.key for e in library.entries if "doi" in e.fields_dict or "eprint" in e.fields_dict
    }
    assert len(with_ids) >= sum(1 for s in papers if s.doi or s.arxiv_id)
    items = to_csl(sources)
    bibliography = CitationStylesBibliography(
        _full_author_style(tmp_path), CiteProcJSON(items), formatter.plain
    )
    for item in items:
        bibliography.register(Citation([CitationItem(item["id"])]))
    rendered = {
        item_id: str(entry)
        for item_id, entry in zip(bibliography.keys, bibliography.bibliography(), strict=True)
    }
    for item in items:
        for author in cast(list[dict[str, str]], item.get("author", [])):
            name = author.get("family") or author.get("literal")
            assert name is not None and name in rendered[str(item["id"]).lower()], (
                item["id"],
                name,
            )
