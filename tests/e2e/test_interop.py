import csv
import io
import json
import re
from collections.abc import Callable
from pathlib import Path

import bibtexparser
import rispy
from playwright.sync_api import Page, expect

from accounts.models import User
from library.models import Bookmark
from tests.hints import SmallCatalog


def test_reader_cites_a_source_and_finds_its_feed(page: Page, small_catalog: SmallCatalog) -> None:
    page.goto("/sources/flashattention/")
    cite = page.locator("details.cite")
    bibtex = cite.locator("pre").first
    expect(bibtex).to_be_hidden()
    cite.get_by_text("Cite", exact=True).click()
    expect(bibtex).to_be_visible()
    expect(bibtex).to_contain_text("@misc{dao2022flashattention,")
    with page.expect_download() as download_info:
        cite.get_by_role("link", name="Download BibTeX (.bib)").click()
    download = download_info.value
    assert download.suggested_filename == "flashattention.bib"
    text = Path(download.path()).read_text(encoding="utf-8")
    library = bibtexparser.parse_string(text)
    assert [entry.key for entry in library.entries] == ["dao2022flashattention"]
    # The page stays usable on a phone: the citation scrolls inside its box, not the page.
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0

    feed_link = page.get_by_role("link", name="Attention (Atom)")
    expect(feed_link).to_have_attribute("href", "/feeds/topics/attention/")
    alternate = page.locator('head link[rel="alternate"][type="application/atom+xml"]')
    expect(alternate).to_have_attribute("href", "/feeds/sources/")
    response = page.request.get("/feeds/topics/attention/")
    assert response.ok and "<feed" in response.text()


def test_topic_page_offers_a_subscription(page: Page, small_catalog: SmallCatalog) -> None:
    page.goto("/topics/kernels/")
    expect(page.get_by_role("link", name="Follow this topic (Atom feed)")).to_have_attribute(
        "href", "/feeds/topics/kernels/"
    )


def test_reader_exports_their_library(
    desktop_page: Page,
    log_in: Callable[[Page, User], None],
    small_catalog: SmallCatalog,
    reader: User,
) -> None:
    page = desktop_page
    Bookmark.objects.create(user=reader, source=small_catalog["flash"], status="reading")
    Bookmark.objects.create(user=reader, source=small_catalog["path"][0], status="read")
    log_in(page, reader)
    page.goto("/library/")
    page.get_by_role("link", name="Export your library").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Export your library")

    with page.expect_download() as download_info:
        page.get_by_role("link", name="Spreadsheet (CSV)").click()
    rows = list(
        csv.DictReader(io.StringIO(Path(download_info.value.path()).read_text(encoding="utf-8")))
    )
    assert {(row["source_slug"], row["status"]) for row in rows} == {
        ("flashattention", "reading"),
        ("scaling-book", "read"),
    }

    with page.expect_download() as download_info:
        page.get_by_role("link", name="JSON", exact=True).click()
    document = json.loads(Path(download_info.value.path()).read_text(encoding="utf-8"))
    assert len(document["bookmarks"]) == 2

    with page.expect_download() as download_info:
        page.get_by_role("link", name="RIS (.ris)").click()
    assert download_info.value.suggested_filename.endswith(".ris")
    references = rispy.loads(Path(download_info.value.path()).read_text(encoding="utf-8"))
    assert {reference["title"] for reference in references} == {
        "FlashAttention",
        "How to Scale Your Model",
    }

    with page.expect_download() as download_info:
        page.get_by_role("link", name="Primary sources (Markdown)").click()
    markdown = Path(download_info.value.path()).read_text(encoding="utf-8")
    assert "- [x] [How to Scale Your Model]" in markdown
    assert "- [~] [FlashAttention]" in markdown


def test_signed_in_reader_sees_what_changed(
    desktop_page: Page,
    log_in: Callable[[Page, User], None],
    small_catalog: SmallCatalog,
    reader: User,
) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from catalog.changelog import record_change
    from catalog.models import ChangeLogEntry

    reader.date_joined = timezone.now() - timedelta(days=3)
    reader.save()
    record_change(
        source=small_catalog["flash"],
        kind=ChangeLogEntry.Kind.PROMOTED,
        detail="Moved from Frontier to Core.",
        via=ChangeLogEntry.Via.ADMIN,
    )
    page = desktop_page
    log_in(page, reader)  # signing in lands on the home page
    expect(page).to_have_url(re.compile(r"/$"))
    panel = page.locator("section.changes-since")
    expect(panel).to_contain_text("Moved from Frontier to Core.")
    panel.get_by_role("link", name="The full change log").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("What changed in the catalog")
    page.get_by_label("Kind of change").select_option("retired")
    expect(page.locator("#change-log")).to_contain_text("No changes recorded of this kind yet.")
    expect(page).to_have_url(re.compile(r"/changes/\?kind=retired$"))
    page.goto("/")
    expect(page.locator("section.changes-since")).to_contain_text("Nothing has changed")


def test_reader_imports_an_endnote_ris_file(
    desktop_page: Page,
    log_in: Callable[[Page, User], None],
    small_catalog: SmallCatalog,
    reader: User,
    tmp_path: Path,
) -> None:
    page = desktop_page
    export = tmp_path / "My EndNote Library.ris"
    export.write_text(
        "TY  - CPAPER\nTI  - Another name for it\nUR  - https://example.org/fa?utm_source=x\n"
        "N1  - Not in the catalog\nER  - \n\n"
        "TY  - JOUR\nTI  - FlashAttention\nPY  - 2022\nER  - \n\n"
        "TY  - JOUR\nTI  - A reference the export cut short\n",
        encoding="utf-8",
    )
    log_in(page, reader)
    page.goto("/library/import/")
    page.get_by_label("BibTeX, RIS or CSL-JSON file").set_input_files(export)
    page.get_by_role("button", name="Preview the import").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Check the import")
    expect(
        page.get_by_text("1 reference matched the catalog, 1 did not, 1 could not be read")
    ).to_be_visible()
    expect(page.get_by_text("Line 12: this reference has no end (ER) line")).to_be_visible()
    assert not Bookmark.objects.filter(user=reader).exists()

    page.get_by_role("button", name="Add 1 source to my library").click()
    expect(page).to_have_url(re.compile(r"/library/"))
    assert Bookmark.objects.get(user=reader).source == small_catalog["flash"]
