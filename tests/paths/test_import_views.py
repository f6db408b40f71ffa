"""/paths/import/: a Markdown list of links previewed, matched, and saved as or into a path."""

from urllib.parse import parse_qs, urlparse

import pytest
from django.contrib.messages import get_messages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from accounts.models import User
from catalog.models import Source
from paths.models import MAX_STEPS, Path
from paths.services import add_step, create_path
from tests.factories import SourceFactory, UserFactory
from tests.hints import Tiers

from .detail_stub import path_page  # noqa: F401

pytestmark = pytest.mark.usefixtures("path_page")
URL = "/paths/import/"

MARKDOWN = """# Awesome kernels

## Basics
- [Scaling](https://example.org/papers/scaling)
- [Not here](https://unknown.example.com/paper)

## Attention
- [FlashAttention](https://example.org/papers/flash)
"""


@pytest.fixture
def linked(tiers: Tiers) -> tuple[Source, Source]:
    scaling = SourceFactory(title="Scaling", url="https://example.org/papers/scaling")
    flash = SourceFactory(title="FlashAttention", url="https://example.org/papers/flash")
    return scaling, flash


def test_the_address_is_named_and_needs_sign_in(client: Client) -> None:
    assert reverse("paths:import") == URL
    response = client.get(URL)
    assert response.status_code == 302 and "/login/" in response["Location"]


def test_preview_lists_matches_in_order_and_offers_to_propose_the_rest(
    signed_in: Client, linked: tuple[Source, Source]
) -> None:
    response = signed_in.post(URL, {"text": MARKDOWN, "action": "preview"})
    html = response.content.decode()
    assert response.status_code == 200
    assert html.index("Scaling") < html.index("FlashAttention")
    assert "2 links matched the catalog, 1 did not" in html
    assert not Path.objects.exists()
    propose = response.context["unmatched"][0][1]
    parsed = urlparse(propose)
    assert parsed.path == reverse("proposals:propose")
    assert parse_qs(parsed.query)["url"] == ["https://unknown.example.com/paper"]
    assert "Propose it" in html
    assert "# Awesome kernels" in html  # the text stays in the form


def test_save_to_a_new_path_with_sections_from_headings(
    signed_in: Client, reader: User, linked: tuple[Source, Source]
) -> None:
    data = {"text": MARKDOWN, "action": "save", "title": "Kernels", "owner": "me"}
    response = signed_in.post(URL, data)
    path = Path.objects.get(user=reader)
    assert response.status_code == 302 and response["Location"] == path.get_absolute_url()
    steps = path.steps.order_by("position").select_related("section")
    assert [s.source.title for s in steps] == ["Scaling", "FlashAttention"]
    assert [s.section.title for s in steps] == ["Basics", "Attention"]
    assert path.changes.filter(action="imported").count() == 1


def test_save_appends_to_a_path_the_reader_may_edit(
    signed_in: Client, reader: User, linked: tuple[Source, Source]
) -> None:
    path = create_path(reader, "Mine")
    first = SourceFactory(title="Already here")
    add_step(path, reader, first)
    signed_in.post(URL, {"text": MARKDOWN, "action": "save", "into": path.key})
    titles = list(path.steps.order_by("position").values_list("source__title", flat=True))
    assert titles == ["Already here", "Scaling", "FlashAttention"]


def test_someone_elses_path_is_not_a_choice(
    signed_in: Client, linked: tuple[Source, Source]
) -> None:
    theirs = create_path(UserFactory(), "Theirs")
    response = signed_in.post(URL, {"text": MARKDOWN, "action": "save", "into": theirs.key})
    assert "Select a valid choice" in response.content.decode()
    assert not theirs.steps.exists()


def test_a_new_path_needs_a_title(signed_in: Client, linked: tuple[Source, Source]) -> None:
    response = signed_in.post(URL, {"text": MARKDOWN, "action": "save"})
    assert response.status_code == 400
    assert "Give the new path a title" in response.content.decode()
    assert not Path.objects.exists()


def test_an_uploaded_file_is_read_and_its_text_kept(
    signed_in: Client, linked: tuple[Source, Source]
) -> None:
    upload = SimpleUploadedFile("README.md", MARKDOWN.encode(), content_type="text/markdown")
    response = signed_in.post(URL, {"file": upload, "action": "preview"})
    html = response.content.decode()
    assert "2 links matched the catalog" in html and "## Attention" in html


@pytest.mark.parametrize(
    "content",
    [b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", b"# list\x00\x00", b"[a](https://x.org/\xff\xfe)"],
    ids=["png", "nul", "not-utf8"],
)
def test_a_binary_file_is_a_clear_error_and_nothing_is_saved(
    signed_in: Client, linked: tuple[Source, Source], content: bytes
) -> None:
    upload = SimpleUploadedFile("list.md", content)
    data = {"file": upload, "action": "save", "title": "T", "text": "typed text"}
    response = signed_in.post(URL, data)
    html = response.content.decode()
    assert response.status_code == 400
    assert "UTF-8" in html or "not text" in html
    assert "typed text" in html
    assert not Path.objects.exists()


def test_typed_text_with_nul_bytes_is_refused(
    signed_in: Client, linked: tuple[Source, Source]
) -> None:
    response = signed_in.post(URL, {"text": "[a](https://x.org)\x00", "action": "preview"})
    assert response.status_code == 400
    assert "Null characters are not allowed" in response.content.decode()
    assert not Path.objects.exists()


def test_an_oversized_upload_is_a_clear_error(
    signed_in: Client, linked: tuple[Source, Source]
) -> None:
    upload = SimpleUploadedFile("big.md", b"- https://example.org/a\n" * 50_000)
    response = signed_in.post(URL, {"file": upload, "action": "preview"})
    assert response.status_code == 400
    assert "at most 1 MB" in response.content.decode()
    assert not Path.objects.exists()


def test_five_thousand_links_save_within_the_limit_and_say_what_was_left_out(
    signed_in: Client, reader: User, tiers: Tiers
) -> None:
    sources = SourceFactory.create_batch(600, tier=tiers["core"])
    lines = [f"- [{s.title}]({s.url})" for s in sources]
    lines += [f"- https://elsewhere.example.net/{n}" for n in range(4_400)]
    data = {"text": "\n".join(lines), "action": "save", "title": "Big"}
    response = signed_in.post(URL, data)
    said = " ".join(str(m) for m in get_messages(response.wsgi_request))
    path = Path.objects.get(user=reader)
    assert path.steps.count() == MAX_STEPS
    assert "100 steps were left out" in said
    assert "were skipped" in said  # the links beyond what one import reads
