import datetime
import json
from typing import cast

import bibtexparser
import pytest
import rispy
from bibtexparser.library import Library
from bibtexparser.model import Entry
from django.test import Client
from pytest_django import DjangoAssertNumQueries

from catalog.citations import (
    base_key,
    citation_keys,
    classify,
    latex,
    parse_authors,
    to_bibtex,
    to_csl,
)
from catalog.citations_ris import to_ris
from catalog.models import Source
from catalog.services import LoadReport
from tests.factories import ListEntryFactory, ListSectionFactory, SourceFactory
from tests.hints import Grow, SmallCatalog, Tiers

CSL_TYPES = {
    "article",
    "article-journal",
    "book",
    "paper-conference",
    "post-weblog",
    "report",
    "software",
    "standard",
    "webpage",
}


def parse_bib(text: str) -> Library:
    library = bibtexparser.parse_string(text)
    assert library.failed_blocks == [], [block.error for block in library.failed_blocks]
    return library


def one_entry(source: Source) -> Entry:
    library = parse_bib(to_bibtex([source]))
    assert len(library.entries) == 1
    return library.entries[0]


def fields(entry: Entry) -> dict[str, str]:
    return {key: field.value for key, field in entry.fields_dict.items()}


@pytest.mark.django_db
class TestEntryTypes:
    def test_conference_paper_is_inproceedings_with_booktitle(self, tiers: Tiers) -> None:
        source = SourceFactory(
            title="FlashAttention: Fast and Memory-Efficient Exact Attention",
            authors="Tri Dao et al.",
            venue="NeurIPS",
            year=2022,
            url="https://arxiv.org/abs/2205.14135",
            tier=tiers["core"],
        )
        entry = one_entry(source)
        assert entry.entry_type == "inproceedings"
        assert entry.key == "dao2022flashattention"
        values = fields(entry)
        assert values["booktitle"] == "NeurIPS"
        assert values["author"] == "Dao, Tri and others"
        assert values["year"] == "2022"
        assert values["eprint"] == "2205.14135"
        [item] = to_csl([source])
        assert item["type"] == "paper-conference"
        assert item["container-title"] == "NeurIPS"
        assert item["author"] == [{"family": "Dao", "given": "Tri"}]
        assert item["issued"] == {"date-parts": [[2022]]}

    def test_journal_paper_is_article(self, tiers: Tiers) -> None:
        source = SourceFactory(venue="IEEE Micro", authors="E. Lindholm et al.", year=2008)
        entry = one_entry(source)
        assert entry.entry_type == "article"
        assert fields(entry)["journal"] == "IEEE Micro"
        assert to_csl([source])[0]["type"] == "article-journal"

    @pytest.mark.parametrize("venue", ["Neurocomputing", "Nature"])
    def test_a_journal_not_named_so_keeps_its_name_beside_the_arxiv_copy(
        self, tiers: Tiers, venue: str
    ) -> None:
        source = SourceFactory(
            venue=venue, url="https://arxiv.org/abs/2104.09864", authors="Jianlin Su"
        )
        entry = one_entry(source)
        assert entry.entry_type == "article"
        values = fields(entry)
        assert values["journal"] == venue
        assert values["eprint"] == "2104.09864"
        item = to_csl([source])[0]
        assert item["type"] == "article-journal"
        assert item["container-title"] == venue

    def test_arxiv_only_paper_is_preprint_article_with_eprint(self, tiers: Tiers) -> None:
        source = SourceFactory(
            venue="arXiv", url="https://arxiv.org/abs/2307.08691", authors="Tri Dao"
        )
        entry = one_entry(source)
        assert entry.entry_type == "article"
        values = fields(entry)
        assert values["journal"] == "arXiv preprint arXiv:2307.08691"
        assert values["eprint"] == "2307.08691"
        assert values["archivePrefix"] == "arXiv"
        item = to_csl([source])[0]
        assert item["type"] == "article"
        assert item["number"] == "arXiv:2307.08691"

    def test_book_has_publisher(self, tiers: Tiers) -> None:
        source = SourceFactory(
            kind=Source.Kind.BOOK,
            venue="The MIT Press",
            authors="Ian Goodfellow, Yoshua Bengio, and Aaron Courville",
            title="Deep Learning",
            year=2016,
        )
        entry = one_entry(source)
        assert entry.entry_type == "book"
        values = fields(entry)
        assert values["publisher"] == "The MIT Press"
        assert values["author"] == ("Goodfellow, Ian and Bengio, Yoshua and Courville, Aaron")
        item = to_csl([source])[0]
        assert item["type"] == "book"
        assert item["publisher"] == "The MIT Press"
        authors = cast(list[dict[str, str]], item["author"])
        assert [a["family"] for a in authors] == ["Goodfellow", "Bengio", "Courville"]

    @pytest.mark.parametrize(
        ("kind", "csl_type"),
        [
            (Source.Kind.DOCUMENTATION, "webpage"),
            (Source.Kind.REPOSITORY, "software"),
            (Source.Kind.SPECIFICATION, "standard"),
            (Source.Kind.WEBSITE, "webpage"),
        ],
    )
    def test_documentation_and_repositories_are_misc_with_url_and_access_date(
        self, tiers: Tiers, kind: str, csl_type: str
    ) -> None:
        source = SourceFactory(
            kind=kind,
            authors="NVIDIA",
            venue="",
            year=None,
            title="CUDA C++ Programming Guide",
            url="https://docs.nvidia.com/cuda/cuda-c-programming-guide/",
            verified_on=datetime.date(2025, 3, 1),
        )
        entry = one_entry(source)
        assert entry.entry_type == "misc"
        values = fields(entry)
        assert values["author"] == "{NVIDIA}"
        assert values["url"] == source.url
        assert values["howpublished"] == "\\url{" + source.url + "}"
        assert values["urldate"] == "2025-03-01"
        item = to_csl([source])[0]
        assert item["type"] == csl_type
        assert item["author"] == [{"literal": "NVIDIA"}]
        assert item["URL"] == source.url
        assert item["accessed"] == {"date-parts": [[2025, 3, 1]]}
        assert "issued" not in item

    def test_organisation_names_stay_whole(self, tiers: Tiers) -> None:
        people, more = parse_authors("The Linux Foundation")
        assert people[0].literal == "The Linux Foundation" and not more
        people, more = parse_authors("Hugging Face")
        assert people[0].literal == "Hugging Face"
        people, more = parse_authors("Betsy Beyer et al. (eds.)")
        assert (people[0].family, people[0].given, more) == ("Beyer", "Betsy", True)


@pytest.mark.django_db
class TestOddSources:
    def test_no_url_no_year_odd_title_still_parses(self, tiers: Tiers) -> None:
        source = SourceFactory(
            title="50% of {GPUs} & $cost_#1 ~ ^x \\ naïve Gordić “quoted” 日本",
            url="",
            year=None,
            authors="",
            venue="",
            awaiting_evidence=True,
            kind=Source.Kind.WATCH,
        )
        entry = one_entry(source)
        values = fields(entry)
        assert "url" not in values and "year" not in values
        title = values["title"]
        for escaped in ["\\%", "\\{", "\\}", "\\&", "\\$", "\\_", "\\#"]:
            assert escaped in title
        assert "\\textasciitilde" in title and "\\textasciicircum" in title
        assert "\\textbackslash" in title
        assert 'na{\\"\\i}ve' in title and "Gordi{\\'c}" in title
        assert "日本" in title
        # The whole title survives as one braced value: braces in it are balanced.
        assert title.count("{") == title.count("}")
        item = to_csl([source])[0]
        assert item["title"] == source.title
        assert "URL" not in item and "issued" not in item
        json.loads(json.dumps(to_csl([source])))

    def test_latex_escapes_every_special(self) -> None:
        assert latex("a & b % c $ d # e _ f { g } h ~ i ^ j \\") == (
            "a {\\&} b {\\%} c {\\$} d {\\#} e {\\_} f {\\{} g {\\}} h {\\textasciitilde} "
            "i {\\textasciicircum} j {\\textbackslash}"
        )

    def test_url_with_braces_or_percent_stays_a_valid_field(self, tiers: Tiers) -> None:
        source = SourceFactory(url="https://example.org/a%20b/{x}#frag")
        values = fields(one_entry(source))
        assert values["url"] == "https://example.org/a%20b/%7Bx%7D#frag"


@pytest.mark.django_db
class TestKeys:
    def test_keys_are_stable_lowercase_ascii(self, tiers: Tiers) -> None:
        source = SourceFactory(title="Ünïcode Tîtle: the Start", authors="Aleksa Gordić", year=2024)
        assert base_key(source) == "gordic2024unicode"

    def test_colliding_keys_are_suffixed_in_slug_order_whatever_the_input_order(
        self, tiers: Tiers
    ) -> None:
        a = SourceFactory(slug="a-guide", title="CUDA guide", authors="NVIDIA", year=None)
        b = SourceFactory(slug="b-guide", title="CUDA reference", authors="NVIDIA", year=None)
        c = SourceFactory(slug="c-guide", title="CUDA samples", authors="NVIDIA", year=None)
        forward = citation_keys([a, b, c])
        backward = citation_keys([c, b, a])
        assert forward == backward
        assert [forward[s.pk] for s in (a, b, c)] == ["nvidiacuda", "nvidiacudab", "nvidiacudac"]
        library = parse_bib(to_bibtex([c, a, b]))
        assert len({entry.key for entry in library.entries}) == 3

    def test_key_without_author_or_year_falls_back_to_title(self, tiers: Tiers) -> None:
        source = SourceFactory(title="The Roofline", authors="", year=None)
        assert base_key(source) == "roofline"


def test_every_source_of_the_shipped_catalog_exports_valid_bibtex_and_csl(
    full_catalog: LoadReport,
) -> None:
    sources = list(Source.objects.select_related("tier").order_by("slug"))
    assert len(sources) > 150
    library = parse_bib(to_bibtex(sources))
    assert len(library.entries) == len(sources)
    keys = [entry.key for entry in library.entries]
    assert len(set(keys)) == len(keys)
    assert all(key.isascii() and key == key.lower() for key in keys)
    types = {entry.entry_type for entry in library.entries}
    assert {"inproceedings", "article", "book", "misc"} <= types
    items = to_csl(sources)
    assert {item["type"] for item in items} <= CSL_TYPES
    for item in items:
        assert item["title"] and item["id"]
        for author in cast(list[dict[str, str]], item.get("author", [])):
            assert set(author) <= {"family", "given", "literal"} and author
    # Stable across runs: the same catalog gives the same document.
    assert citation_keys(sources) == citation_keys(list(reversed(sources)))
    assert to_bibtex(sources) == to_bibtex(list(Source.objects.order_by("slug")))


@pytest.mark.django_db
class TestDownloads:
    def test_source_page_offers_both_formats(
        self, client: Client, small_catalog: SmallCatalog
    ) -> None:
        flash = small_catalog["flash"]
        page = client.get(flash.get_absolute_url()).content.decode()
        assert "<summary>Cite</summary>" in page
        assert f"/sources/{flash.slug}/cite.bib" in page
        assert f"/sources/{flash.slug}/cite.json" in page
        assert f"/sources/{flash.slug}/cite.ris" in page
        assert "dao2022flashattention" in page

    def test_source_bib_download(self, client: Client, small_catalog: SmallCatalog) -> None:
        response = client.get("/sources/flashattention/cite.bib")
        assert response.status_code == 200
        assert response["Content-Type"].startswith("application/x-bibtex")
        assert 'filename="flashattention.bib"' in response["Content-Disposition"]
        library = parse_bib(response.content.decode())
        assert [entry.key for entry in library.entries] == ["dao2022flashattention"]

    def test_source_csl_download(self, client: Client, small_catalog: SmallCatalog) -> None:
        response = client.get("/sources/flashattention/cite.json")
        assert response.status_code == 200
        items = json.loads(response.content)
        assert items[0]["title"] == "FlashAttention"

    def test_source_ris_download_reads_back(
        self, client: Client, small_catalog: SmallCatalog
    ) -> None:
        flash = small_catalog["flash"]
        flash.url, flash.doi = "https://arxiv.org/abs/2205.14135", "10.5555/3600270.3601459"
        flash.save()
        response = client.get("/sources/flashattention/cite.ris")
        assert response.status_code == 200
        assert response["Content-Type"].startswith("application/x-research-info-systems")
        assert 'filename="flashattention.ris"' in response["Content-Disposition"]
        text = response.content.decode()
        assert text.startswith("TY  - ")
        [reference] = rispy.loads(text)
        assert reference["id"] == "dao2022flashattention"
        assert reference["title"] == "FlashAttention"
        assert reference["authors"] == ["Dao, Tri"]
        assert reference["doi"] == "10.5555/3600270.3601459"
        assert reference["notes"] == ["arXiv:2205.14135", "Further authors not listed (et al.)."]

    def test_unknown_source_is_404(self, client: Client, small_catalog: SmallCatalog) -> None:
        assert client.get("/sources/nope/cite.bib").status_code == 404

    def test_reading_list_export_in_list_order(
        self, client: Client, small_catalog: SmallCatalog
    ) -> None:
        response = client.get(f"/lists/{small_catalog['list'].slug}/cite.bib")
        library = parse_bib(response.content.decode())
        titles = [entry.fields_dict["title"].value for entry in library.entries]
        assert titles == [
            "{How to Scale Your Model}",
            "{Attention Is All You Need}",
            "{Roofline}",
            "{FlashAttention}",
        ]
        items = json.loads(client.get(f"/lists/{small_catalog['list'].slug}/cite.json").content)
        assert [item["title"] for item in items][-1] == "FlashAttention"
        ris = client.get(f"/lists/{small_catalog['list'].slug}/cite.ris").content.decode()
        assert [reference["title"] for reference in rispy.loads(ris)] == [
            "How to Scale Your Model",
            "Attention Is All You Need",
            "Roofline",
            "FlashAttention",
        ]

    def test_search_result_export_applies_query_and_filters(
        self, client: Client, small_catalog: SmallCatalog
    ) -> None:
        response = client.get("/sources/cite.bib", {"q": "attention"})
        titles = {
            e.fields_dict["title"].value for e in parse_bib(response.content.decode()).entries
        }
        assert titles == {"{Attention Is All You Need}", "{FlashAttention}"}
        response = client.get("/sources/cite.json", {"topic": "serving"})
        assert [item["title"] for item in json.loads(response.content)] == [
            "How to Scale Your Model"
        ]

    def test_search_export_with_bad_year_still_answers(
        self, client: Client, small_catalog: SmallCatalog
    ) -> None:
        response = client.get("/sources/cite.json", {"year": "soon", "q": "flash"})
        assert response.status_code == 200
        assert [item["title"] for item in json.loads(response.content)] == ["FlashAttention"]

    def test_citation_queries_are_constant(
        self,
        client: Client,
        many_sources: Grow,
        django_assert_max_num_queries: DjangoAssertNumQueries,
    ) -> None:
        many_sources(5)
        section = ListSectionFactory()
        for position, source in enumerate(SourceFactory.create_batch(3), start=1):
            ListEntryFactory(section=section, source=source, position=position)
        slug = section.reading_list.slug
        with django_assert_max_num_queries(4):
            client.get(f"/lists/{slug}/cite.bib")
        many_sources(40)
        with django_assert_max_num_queries(4):
            client.get("/sources/cite.bib")


@pytest.mark.django_db
def test_classify_never_fails_on_empty_fields(tiers: Tiers) -> None:
    source = SourceFactory(authors="", venue="", year=None, url="")
    citation = classify(source)
    assert citation.bibtex_type == "misc"


@pytest.mark.django_db
def test_a_line_break_in_a_field_cannot_start_a_field_of_its_own(tiers: Tiers) -> None:
    source = SourceFactory(
        title="Evil\nER  - \nTY  - JOUR\nTI  - Injected",
        authors="Mallory\r\nAU  - Eve",
        venue="Nature",
    )
    [reference] = rispy.loads(to_ris([source]))
    assert reference["title"] == "Evil ER  -  TY  - JOUR TI  - Injected"
    assert len(reference["authors"]) == 1  # one name, whatever it reads as
    assert reference["type_of_reference"] == "JOUR"
    assert reference["secondary_title"] == "Nature"
