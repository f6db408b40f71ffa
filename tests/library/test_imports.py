"""Import from a reference manager: preview first, write only on confirmation, and survive
hostile files with a clear report."""

import re
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from catalog.services import LoadReport
from library.imports.entries import MAX_ENTRIES
from library.models import Bookmark
from tests.hints import Response, SmallCatalog, found

pytestmark = pytest.mark.django_db

FIXTURES = Path(__file__).parent / "fixtures"
NOT_IN_CATALOG = [
    "Gradient-Based Learning Applied to Document Recognition",
    "Deep Residual Learning for Image Recognition",
    "Fused Kernels for Naïve Transformers: A Practitioner&#x27;s Überblick",
    "Adam: A Method for Stochastic Optimization",
    "LLM Powered Autonomous Agents",
    "Playing Atari with Deep Reinforcement Learning",
]


def upload(client: Client, name: str, content: str | bytes) -> Response:
    data = content if isinstance(content, bytes) else content.encode()
    return client.post("/library/import/", {"file": SimpleUploadedFile(name, data)})


def confirm(client: Client, page: str, status: str = "to_read") -> Response:
    token = found(re.search(r'name="token" value="([^"]+)"', page))[1]
    return client.post("/library/import/confirm/", {"token": token, "status": status})


def test_the_zotero_export_is_previewed_then_imported(
    signed_in: Client, reader: User, full_catalog: LoadReport
) -> None:
    existing = Bookmark.objects.create(user=reader, source_id=_source_id("flashattention"))
    existing.status = "read"
    existing.save()
    page = upload(signed_in, "My Library.bib", (FIXTURES / "zotero_export.bib").read_text())
    text = page.content.decode()
    assert page.status_code == 200
    assert "36 references matched the catalog, 6 did not" in text
    assert not Bookmark.objects.exclude(pk=existing.pk).exists()  # nothing written yet
    for title in NOT_IN_CATALOG:
        assert title in text
    assert text.split("import-unmatched")[1].count(">Propose</a>") == 6
    assert "Already in your library: kept as “Read”" in text
    # Two references name a source twice over; the one already saved is not added again.
    assert "Add 33 sources to my library" in text
    for matched_by in ["arXiv id", "URL", "title"]:
        assert f"<td>{matched_by}</td>" in text

    response = confirm(signed_in, text, status="reading")
    assert response.status_code == 302
    saved = Bookmark.objects.filter(user=reader)
    assert saved.count() == 34
    assert saved.get(source__slug="flashattention").status == "read"  # untouched
    assert saved.get(source__slug="orca").status == "reading"
    assert saved.get(source__slug="pmpp").status == "reading"  # matched by an alias
    assert saved.get(source__slug="megatron-lm").status == "reading"  # by its list label


def test_a_doi_finds_the_source_whose_address_carries_it(
    signed_in: Client, reader: User, small_catalog: SmallCatalog
) -> None:
    flash = small_catalog["flash"]
    flash.url = "https://dl.acm.org/doi/10.5555/3600270.3601459"
    flash.save()
    entry = "@inproceedings{dao, title = {Other title}, doi = {10.5555/3600270.3601459}}"
    text = upload(signed_in, "x.bib", entry).content.decode()
    assert "<td>DOI</td>" in text
    confirm(signed_in, text)
    assert Bookmark.objects.get(user=reader).source == flash


def test_the_csl_json_export_is_imported(
    signed_in: Client, reader: User, full_catalog: LoadReport
) -> None:
    page = upload(signed_in, "export.json", (FIXTURES / "zotero_export.csl.json").read_text())
    text = page.content.decode()
    assert "5 references matched the catalog, 2 did not, 1 could not be read" in text
    assert "Entry 8: no title, DOI or URL; skipped." in text
    confirm(signed_in, text)
    slugs = set(Bookmark.objects.filter(user=reader).values_list("source__slug", flat=True))
    assert {"flashattention-2", "gptq", "pagedattention", "roofline"} <= slugs


def test_propose_links_open_the_form_prefilled(signed_in: Client, full_catalog: LoadReport) -> None:
    text = upload(signed_in, "lib.bib", (FIXTURES / "zotero_export.bib").read_text()).content
    link = found(re.search(r'href="(/propose/\?[^"]*Deep\+Residual[^"]*)"', text.decode()))[1]
    page = signed_in.get(link.replace("&amp;", "&")).content.decode()
    assert 'value="https://doi.org/10.1109/cvpr.2016.90"' in page
    assert 'value="Deep Residual Learning for Image Recognition"' in page
    assert 'value="2016"' in page


def test_matching_takes_a_fixed_number_of_queries(
    signed_in: Client, full_catalog: LoadReport
) -> None:
    small = "@misc{a, title={Attention Is All You Need}}"
    big = (FIXTURES / "zotero_export.bib").read_text()
    # One visit first: the header's unread count is cached after it, as on every later page.
    signed_in.get("/library/")
    counts = []
    for content in (small, big):
        with CaptureQueriesContext(connection) as queries:
            upload(signed_in, "x.bib", content)
        counts.append(len(queries))
    # 13 for the import itself, 2 for the reader's import rate limit, 1 for the header's count.
    assert counts[0] == counts[1] <= 16


def test_a_stale_or_forged_preview_writes_nothing(
    signed_in: Client, reader: User, full_catalog: LoadReport
) -> None:
    response = signed_in.post("/library/import/confirm/", {"token": "forged", "status": "read"})
    assert response.status_code == 302
    assert not Bookmark.objects.filter(user=reader).exists()


def test_confirmation_needs_the_reader_who_previewed(
    client: Client, reader: User, other_reader: User, full_catalog: LoadReport
) -> None:
    client.force_login(reader)
    text = upload(client, "x.bib", (FIXTURES / "zotero_export.bib").read_text()).content.decode()
    client.force_login(other_reader)
    confirm(client, text)
    assert not Bookmark.objects.exists()


HOSTILE = {
    "unbalanced braces": "@article{a,\n title = {Never {closed,\n year = 2020\n}\n"
    "@misc{b, title = {Attention Is All You Need}}\n",
    "a 100,000-character field": "@misc{long, title = {" + "x" * 100_000 + "}}\n",
    "string macros": '@string{t = "Attention Is All You Need"}\n@misc{m, title = t}\n'
    "@string{loop = loop # loop}\n@misc{n, title = loop}\n",
    "input command": "@misc{i, title = {\\input{/etc/passwd} Attention Is All You Need}}\n",
    "deep nesting": "@misc{d, title = {" + "{" * 5000 + "x" + "}" * 5000 + "}}\n",
    "only garbage": "@@@@}}}}{{{{ ### \\\\ @misc{",
}


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_bibtex_never_fails_and_writes_nothing(
    signed_in: Client, reader: User, full_catalog: LoadReport, name: str
) -> None:
    response = upload(signed_in, "hostile.bib", HOSTILE[name])
    assert response.status_code in (200, 400)
    assert "root:" not in response.content.decode()
    assert not Bookmark.objects.filter(user=reader).exists()


def test_a_malformed_entry_is_reported_by_line_and_the_rest_kept(
    signed_in: Client, full_catalog: LoadReport
) -> None:
    text = upload(signed_in, "x.bib", HOSTILE["unbalanced braces"]).content.decode()
    assert "Line 1: this entry is malformed" in text
    assert "1 reference matched the catalog" in text


def test_binary_data_is_refused_with_a_reason(
    signed_in: Client, reader: User, full_catalog: LoadReport
) -> None:
    response = upload(signed_in, "photo.bib", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    assert response.status_code == 400
    assert "holds binary data" in response.content.decode()


def test_files_over_five_megabytes_are_refused(signed_in: Client, full_catalog: LoadReport) -> None:
    response = upload(signed_in, "big.bib", b"%" * (5 * 1024 * 1024 + 1))
    assert response.status_code == 400
    assert "at most 5 MB can be imported" in response.content.decode()


def test_more_than_two_thousand_entries_are_refused(
    signed_in: Client, reader: User, full_catalog: LoadReport
) -> None:
    many = "".join(f"@misc{{k{i}, title = {{T{i}}}}}\n" for i in range(MAX_ENTRIES + 1))
    response = upload(signed_in, "many.bib", many)
    assert response.status_code == 400
    assert "holds 2,001 entries; at most 2,000" in response.content.decode()


def test_invalid_json_is_refused_with_its_line(signed_in: Client, full_catalog: LoadReport) -> None:
    response = upload(signed_in, "x.json", '[\n{"title": "x",\n')
    assert response.status_code == 400
    assert "not valid JSON (line" in response.content.decode()


def test_latex_is_decoded_to_text(signed_in: Client, full_catalog: LoadReport) -> None:
    text = upload(signed_in, "x.bib", (FIXTURES / "zotero_export.bib").read_text()).content
    assert "Naïve Transformers: A Practitioner&#x27;s Überblick" in text.decode()


def test_import_needs_a_reader(client: Client, full_catalog: LoadReport) -> None:
    assert client.get("/library/import/")["Location"].startswith("/accounts/login/")


def _source_id(slug: str) -> int:
    from catalog.models import Source

    return Source.objects.get(slug=slug).pk
