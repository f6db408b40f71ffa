"""A path as Markdown, BibTeX and CSL-JSON, in path order, for whoever may see the path."""

import json

import pytest
from django.test import Client

from accounts.models import User
from paths.models import Path, PathSection, PathStep
from tests.factories import SourceFactory

from .follow_helpers import DETAIL_URLS, make_path

pytestmark = [pytest.mark.django_db, pytest.mark.urls(DETAIL_URLS)]


@pytest.fixture
def path(other_reader: User) -> Path:
    flash = SourceFactory(
        title="FlashAttention",
        authors="Tri Dao, Daniel Y. Fu",
        year=2022,
        url="https://a.example/fa",
    )
    roofline = SourceFactory(title="Roofline [model]", authors="Samuel Williams", year=2009)
    path = make_path(
        other_reader,
        [roofline, flash],
        title="GEMM & attention",
        notes=["Read *pages 1-4*.\nThen the plots.", ""],
    )
    later = PathSection.objects.create(path=path, title="Serving", position=1)
    paged = SourceFactory(title="PagedAttention", authors="", year=None, url="")
    PathStep.objects.create(path=path, section=later, source=paged, position=2)
    return path


def test_markdown_is_a_list_to_paste_into_a_readme(client: Client, path: Path) -> None:
    response = client.get(f"/paths/{path.key}/export.md")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/markdown")
    assert 'filename="path-gemm-attention.md"' in response["Content-Disposition"]
    text = response.content.decode()
    assert text.startswith("# GEMM & attention\n")
    roofline = path.steps.get(position=0).source.url
    assert (
        "## Basics\n\n1. [Roofline \\[model\\]](<" + roofline + ">) — Samuel Williams, 2009\n"
        in text
    )
    assert "   Read *pages 1-4*.\n   Then the plots.\n" in text
    assert "2. [FlashAttention](<https://a.example/fa>) — Tri Dao, Daniel Y. Fu, 2022\n" in text
    # A source without an address links to its page here.
    paged = f"http://testserver/sources/{path.steps.get(position=2).source.slug}/"
    assert f"## Serving\n\n3. [PagedAttention](<{paged}>)\n" in text


def test_bibtex_and_csl_follow_the_path_order(client: Client, path: Path) -> None:
    bib = client.get(f"/paths/{path.key}/export.bib")
    assert 'filename="path-gemm-attention.bib"' in bib["Content-Disposition"]
    body = bib.content.decode()
    assert body.index("Roofline") < body.index("FlashAttention") < body.index("PagedAttention")
    csl = client.get(f"/paths/{path.key}/export.json")
    items = json.loads(csl.content)
    assert [item["title"] for item in items] == [
        "Roofline [model]",
        "FlashAttention",
        "PagedAttention",
    ]
    assert 'filename="path-gemm-attention-csl.json"' in csl["Content-Disposition"]


@pytest.mark.parametrize("suffix", ["export.md", "export.bib", "export.json"])
def test_a_private_path_is_404_to_others(
    client: Client, path: Path, reader: User, suffix: str
) -> None:
    path.visibility = "private"
    path.save()
    assert client.get(f"/paths/{path.key}/{suffix}").status_code == 404
    client.force_login(reader)
    assert client.get(f"/paths/{path.key}/{suffix}").status_code == 404
    client.force_login(path.user)
    assert client.get(f"/paths/{path.key}/{suffix}").status_code == 200
