import csv
import io
import json
from datetime import timedelta

import bibtexparser
import pytest
import rispy
from django.test import Client
from django.utils import timezone
from pytest_django import DjangoAssertNumQueries

from accounts.models import User
from catalog.models import Source
from library.models import Bookmark
from tests.factories import NoteFactory, SourceFactory
from tests.hints import Grow, SmallCatalog, Tiers

EXPORTS = [
    "/library/export/",
    "/library/export.csv",
    "/library/export.json",
    "/library/export.bib",
    "/library/export.csl.json",
    "/library/export.ris",
]


@pytest.fixture
def library(small_catalog: SmallCatalog, reader: User, other_reader: User) -> SmallCatalog:
    """The reader finished one source, is reading another, saved a third; the other reader has
    their own bookmark and notes, which must never show up in the reader's exports."""
    path = small_catalog["path"]
    now = timezone.now()
    Bookmark.objects.create(
        user=reader,
        source=path[0],
        status="read",
        saved_at=now - timedelta(days=3),
        started_at=now - timedelta(days=2),
        finished_at=now - timedelta(days=1),
    )
    Bookmark.objects.create(
        user=reader,
        source=path[1],
        status="reading",
        saved_at=now - timedelta(days=2),
        started_at=now - timedelta(hours=5),
    )
    Bookmark.objects.create(
        user=reader, source=small_catalog["flash"], status="to_read", saved_at=now
    )
    Bookmark.objects.create(user=other_reader, source=path[2], status="read")
    NoteFactory(user=reader, source=path[1], body='=HYPERLINK("evil") tiling matters')
    NoteFactory(user=reader, source=path[2], body="A note without a bookmark.")
    NoteFactory(user=other_reader, source=path[0], body="Other reader's secret", visibility="team")
    return small_catalog


@pytest.mark.django_db
class TestAccess:
    @pytest.mark.parametrize("url", [*EXPORTS, "/library/lists/wafer.md"])
    def test_anonymous_visitors_are_sent_to_log_in_and_back(
        self, client: Client, small_catalog: SmallCatalog, url: str
    ) -> None:
        response = client.get(url)
        assert response.status_code == 302
        assert response["Location"].startswith("/accounts/login/?next=")
        assert response["Location"].endswith(f"next={url}")

    @pytest.mark.parametrize("url", [u for u in EXPORTS if u != "/library/export/"])
    def test_nobody_gets_another_readers_data(
        self, client: Client, library: SmallCatalog, other_reader: User, url: str
    ) -> None:
        client.force_login(other_reader)
        body = client.get(url).content.decode()
        assert "Attention Is All You Need" not in body
        assert "FlashAttention" not in body
        assert "tiling matters" not in body and "without a bookmark" not in body
        assert "Roofline" in body  # their own bookmark

    def test_markdown_ticks_are_the_signed_in_readers_own(
        self, client: Client, library: SmallCatalog, other_reader: User
    ) -> None:
        client.force_login(other_reader)
        text = client.get("/library/lists/wafer.md").content.decode()
        assert "- [ ] [How to Scale Your Model]" in text
        assert "- [x] [Roofline]" in text

    def test_exports_are_get_only(
        self, client: Client, library: SmallCatalog, reader: User
    ) -> None:
        client.force_login(reader)
        assert client.post("/library/export.csv").status_code == 405


@pytest.mark.django_db
class TestLibraryData:
    def test_csv_has_status_dates_and_notes(
        self, client: Client, library: SmallCatalog, reader: User
    ) -> None:
        client.force_login(reader)
        response = client.get("/library/export.csv")
        assert response["Content-Type"] == "text/csv; charset=utf-8"
        assert "attachment;" in response["Content-Disposition"]
        rows = list(csv.DictReader(io.StringIO(response.content.decode())))
        by_slug = {row["source_slug"]: row for row in rows}
        assert [row["source_slug"] for row in rows] == [
            "scaling-book",
            "attention-paper",
            "flashattention",
            "roofline",
        ]
        read = by_slug["scaling-book"]
        assert read["status"] == "read" and read["finished_at"] and read["started_at"]
        assert read["source_url"].startswith("https://")
        assert read["catalog_page"] == "http://testserver/sources/scaling-book/"
        assert by_slug["flashattention"]["started_at"] == ""
        # A note starting with "=" cannot run as a spreadsheet formula.
        assert by_slug["attention-paper"]["notes"] == '\'=HYPERLINK("evil") tiling matters'
        assert by_slug["roofline"]["status"] == ""
        assert by_slug["roofline"]["notes"] == "A note without a bookmark."

    def test_json_has_bookmarks_and_notes(
        self, client: Client, library: SmallCatalog, reader: User
    ) -> None:
        client.force_login(reader)
        document = json.loads(client.get("/library/export.json").content)
        assert document["reader"] == "reader@example.com"
        statuses = {b["source"]["slug"]: b["status"] for b in document["bookmarks"]}
        assert statuses == {
            "scaling-book": "read",
            "attention-paper": "reading",
            "flashattention": "to_read",
        }
        first = document["bookmarks"][0]
        assert set(first) == {"source", "status", "saved_at", "started_at", "finished_at"}
        assert first["finished_at"] is not None
        assert [n["body"] for n in document["notes"]] == [
            '=HYPERLINK("evil") tiling matters',
            "A note without a bookmark.",
        ]

    def test_deleted_notes_are_not_exported(
        self, client: Client, library: SmallCatalog, reader: User
    ) -> None:
        from notes.models import Note

        Note.objects.filter(user=reader).update(deleted_at=timezone.now())
        client.force_login(reader)
        document = json.loads(client.get("/library/export.json").content)
        assert document["notes"] == []

    def test_library_citations(self, client: Client, library: SmallCatalog, reader: User) -> None:
        client.force_login(reader)
        bib = client.get("/library/export.bib").content.decode()
        parsed = bibtexparser.parse_string(bib)
        assert parsed.failed_blocks == []
        assert [e.fields_dict["title"].value for e in parsed.entries] == [
            "{How to Scale Your Model}",
            "{Attention Is All You Need}",
            "{FlashAttention}",
        ]
        items = json.loads(client.get("/library/export.csl.json").content)
        assert [item["title"] for item in items][-1] == "FlashAttention"
        references = rispy.loads(client.get("/library/export.ris").content.decode())
        assert [reference["title"] for reference in references][-1] == "FlashAttention"

    def test_empty_library_exports_cleanly(
        self, client: Client, reader: User, tiers: Tiers
    ) -> None:
        client.force_login(reader)
        rows = list(csv.reader(io.StringIO(client.get("/library/export.csv").content.decode())))
        assert len(rows) == 1
        assert json.loads(client.get("/library/export.json").content)["bookmarks"] == []
        assert (
            bibtexparser.parse_string(client.get("/library/export.bib").content.decode()).entries
            == []
        )
        assert client.get("/library/export.ris").content == b""

    def test_export_page_links_every_download(
        self, client: Client, library: SmallCatalog, reader: User
    ) -> None:
        client.force_login(reader)
        html = client.get("/library/export/").content.decode()
        for url in EXPORTS[1:]:
            assert f'href="{url}"' in html
        assert 'href="/library/lists/wafer.md"' in html
        assert 'href="/library/export/"' in client.get("/library/").content.decode()

    def test_export_query_counts_are_constant(
        self,
        client: Client,
        reader: User,
        many_sources: Grow,
        django_assert_max_num_queries: DjangoAssertNumQueries,
    ) -> None:
        client.force_login(reader)

        def save(sources: list[Source]) -> None:
            for source in sources:
                Bookmark.objects.create(user=reader, source=source)
                NoteFactory(user=reader, source=source)

        save(many_sources(3))
        counts = {}
        for url in EXPORTS[1:]:
            with django_assert_max_num_queries(8) as captured:
                client.get(url)
            counts[url] = len(captured.captured_queries)
        save(many_sources(20))
        for url in EXPORTS[1:]:
            with django_assert_max_num_queries(counts[url]):
                client.get(url)


@pytest.mark.django_db
class TestReadingListMarkdown:
    def test_list_in_order_with_status_ticks(
        self, client: Client, library: SmallCatalog, reader: User
    ) -> None:
        client.force_login(reader)
        response = client.get("/library/lists/wafer.md")
        assert response["Content-Type"] == "text/markdown; charset=utf-8"
        assert 'filename="wafer.md"' in response["Content-Disposition"]
        text = response.content.decode()
        lines = [line for line in text.splitlines() if line.startswith("- ")]
        assert [line.split("](")[0] for line in lines] == [
            "- [x] [How to Scale Your Model",
            "- [~] [Attention Is All You Need",
            "- [ ] [Roofline",
            "- [ ] [FlashAttention",
        ]
        assert text.startswith("# Primary sources\n")
        assert "## Start here" in text and "## Attention kernels" in text
        assert text.index("## Start here") < text.index("## Attention kernels")

    def test_markdown_escapes_titles(
        self, client: Client, reader: User, small_catalog: SmallCatalog
    ) -> None:
        from catalog.models import ListEntry

        odd = SourceFactory(title="[Click](javascript:alert(1)) *bold* <b>")
        section = small_catalog["list"].sections.get(slug="core")
        ListEntry.objects.create(section=section, source=odd, position=9)
        client.force_login(reader)
        text = client.get("/library/lists/wafer.md").content.decode()
        assert "\\[Click\\]\\(javascript:alert\\(1\\)\\) \\*bold\\* \\<b\\>" in text

    def test_unknown_list_is_404(
        self, client: Client, reader: User, small_catalog: SmallCatalog
    ) -> None:
        client.force_login(reader)
        assert client.get("/library/lists/nope.md").status_code == 404

    def test_list_page_links_the_markdown_for_signed_in_readers(
        self, client: Client, reader: User, library: SmallCatalog
    ) -> None:
        assert "/library/lists/wafer.md" not in client.get("/lists/wafer/").content.decode()
        client.force_login(reader)
        assert "/library/lists/wafer.md" in client.get("/lists/wafer/").content.decode()
