"""Imports match references by every key of a work and skip, with a message, an entry whose
URL is no web address instead of failing the whole file."""

import pytest
from django.test import Client

from accounts.models import User
from library.models import Bookmark
from tests.factories import SourceFactory
from tests.hints import SmallCatalog

from .test_imports import confirm, upload

pytestmark = pytest.mark.django_db


def test_an_entry_with_a_hostile_url_is_skipped_and_the_rest_imported(
    signed_in: Client, reader: User, small_catalog: SmallCatalog
) -> None:
    flash = small_catalog["flash"]
    flash.url = "https://arxiv.org/abs/2205.14135"
    flash.save()
    text = (
        "@misc{bad, title = {Broken}, url = {http://example.com:99999/}}\n"
        "@misc{ipv6, title = {Unclosed}, url = {http://[::1/}}\n"
        "@article{dao, title = {FlashAttention}, eprint = {2205.14135}}\n"
    )
    response = upload(signed_in, "x.bib", text)
    page = response.content.decode()
    assert response.status_code == 200
    assert "“bad” has a URL that is not valid" in page
    assert "“ipv6” has a URL that is not valid" in page
    confirm(signed_in, page)
    assert Bookmark.objects.get(user=reader).source == flash


def test_a_reference_to_the_arxiv_version_finds_the_paper_catalogued_at_its_venue(
    signed_in: Client, reader: User, small_catalog: SmallCatalog
) -> None:
    paper = SourceFactory(
        slug="sarathi", url="https://www.usenix.org/osdi24-agrawal.pdf", arxiv_id="2403.02310"
    )
    text = "@misc{s, title = {Another name}, url = {https://arxiv.org/pdf/2403.02310v2}}"
    page = upload(signed_in, "x.bib", text).content.decode()
    assert "<td>arXiv id</td>" in page
    confirm(signed_in, page)
    assert Bookmark.objects.get(user=reader).source == paper


def test_a_repository_subpage_with_tracking_finds_the_repository(
    signed_in: Client, reader: User, small_catalog: SmallCatalog
) -> None:
    repo = SourceFactory(slug="vllm", url="https://github.com/vllm-project/vllm")
    text = (
        "@misc{v, title = {Engine}, url = {https://www.github.com/vllm-project/vllm/tree/main"
        "?utm_source=x}}"
    )
    confirm(signed_in, upload(signed_in, "x.bib", text).content.decode())
    assert Bookmark.objects.get(user=reader).source == repo


@pytest.mark.parametrize(
    ("name", "text"),
    [
        (
            "scholar.bib",
            "@article{h, title = {Other}, journal = {arXiv preprint arXiv:2009.03300}}",
        ),
        ("note.bib", "@misc{h, title = {Other}, note = {arXiv:2009.03300v3}}"),
        (
            "zotero.json",
            '[{"id": "h", "type": "article", "title": "Other", '
            '"number": "arXiv:2009.03300", "publisher": "arXiv"}]',
        ),
    ],
)
def test_an_arxiv_id_cited_in_words_finds_the_paper(
    signed_in: Client, reader: User, small_catalog: SmallCatalog, name: str, text: str
) -> None:
    paper = SourceFactory(
        slug="mmlu", url="https://arxiv.org/abs/2009.03300", arxiv_id="2009.03300"
    )
    page = upload(signed_in, name, text).content.decode()
    assert "<td>arXiv id</td>" in page
    confirm(signed_in, page)
    assert Bookmark.objects.get(user=reader).source == paper


def test_a_reference_by_the_full_published_title_finds_the_source(
    signed_in: Client, reader: User, small_catalog: SmallCatalog
) -> None:
    paper = SourceFactory(
        slug="mmlu",
        title="MMLU",
        full_title="Measuring Massive Multitask Language Understanding",
        url="https://openreview.net/forum?id=d7KBjmI3GmQ",
    )
    text = "@inproceedings{h, title = {Measuring Massive Multitask Language Understanding}}"
    page = upload(signed_in, "x.bib", text).content.decode()
    assert "<td>title</td>" in page
    confirm(signed_in, page)
    assert Bookmark.objects.get(user=reader).source == paper
