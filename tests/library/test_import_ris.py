"""RIS files, as EndNote, Mendeley and Zotero export them, are previewed and imported like
BibTeX: matched by DOI, arXiv id (in a URL or cited in words), URL or title, with a line-numbered
report of what could not be read."""

from pathlib import Path

import pytest
from django.test import Client

from accounts.models import User
from catalog.services import LoadReport
from library.imports.entries import MAX_ENTRIES
from library.models import Bookmark

from .test_imports import confirm, upload

pytestmark = pytest.mark.django_db

EXPORT = (Path(__file__).parent / "fixtures" / "endnote_export.ris").read_text()


def test_an_endnote_export_is_previewed_then_imported(
    signed_in: Client, reader: User, full_catalog: LoadReport
) -> None:
    page = upload(signed_in, "My EndNote Library.ris", EXPORT).content.decode()
    assert "4 references matched the catalog, 1 did not, 2 could not be read" in page
    assert "Line 46: this reference has no title, DOI or URL; skipped." in page
    assert "Line 50: this reference has no end (ER) line and was skipped." in page
    assert "Deep Residual Learning for Image Recognition" in page
    for matched_by in ["DOI", "arXiv id", "title"]:
        assert f"<td>{matched_by}</td>" in page
    assert not Bookmark.objects.filter(user=reader).exists()  # nothing written yet

    confirm(signed_in, page, status="reading")
    saved = set(Bookmark.objects.filter(user=reader).values_list("source__slug", flat=True))
    assert saved == {"pagedattention", "mmlu", "flashattention", "pmpp"}


def test_windows_line_ends_a_header_and_a_byte_order_mark_are_read_without_the_extension(
    signed_in: Client, reader: User, full_catalog: LoadReport
) -> None:
    header = "Provider: A Publisher\nContent: text/plain; charset=UTF-8\n\n"
    data = ("\ufeff" + header + EXPORT.replace("\n", "\r\n")).encode()
    page = upload(signed_in, "export.txt", data).content.decode()
    assert "4 references matched the catalog" in page


def test_more_than_two_thousand_references_are_refused(
    signed_in: Client, reader: User, full_catalog: LoadReport
) -> None:
    many = "".join(f"TY  - GEN\nTI  - T{i}\nER  - \n" for i in range(MAX_ENTRIES + 1))
    response = upload(signed_in, "many.ris", many)
    assert response.status_code == 400
    assert "holds 2,001 entries; at most 2,000" in response.content.decode()


def test_a_ris_file_with_no_reference_is_refused(
    signed_in: Client, reader: User, full_catalog: LoadReport
) -> None:
    response = upload(signed_in, "empty.ris", "Provider: nobody\nContent: text/plain\n")
    assert response.status_code == 400
    assert "No RIS references were found in this file." in response.content.decode()


def test_hostile_fields_are_cut_and_written_nowhere(
    signed_in: Client, reader: User, full_catalog: LoadReport
) -> None:
    hostile = (
        "TY  - JOUR\n"
        f"TI  - <script>alert(1)</script>{'x' * 10_000}\n"
        f"UR  - javascript:alert(1)\n"
        f"AU  - {'A, B; ' * 5_000}\n"
        "ER  - \n"
    )
    response = upload(signed_in, "x.ris", hostile)
    page = response.content.decode()
    assert response.status_code in (200, 400)
    assert "<script>alert(1)" not in page
    assert 'href="javascript:' not in page
    assert not Bookmark.objects.filter(user=reader).exists()
