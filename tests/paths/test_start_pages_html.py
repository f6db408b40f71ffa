"""The pages that start a path are valid HTML, as the Nu Html Checker (vnu) judges them."""

from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from paths.services import add_step, create_path, remove_step
from tests.factories import SourceFactory
from tests.hints import SmallCatalog, present
from tests.production.test_html_valid import JAVA, VNU_JAR, vnu_errors

from .detail_stub import path_page  # noqa: F401

pytestmark = [
    pytest.mark.usefixtures("path_page"),
    pytest.mark.skipif(not (JAVA and VNU_JAR.exists()), reason="vnu needs Java and vnu.jar"),
]

MARKDOWN = "# Reading\n## Basics\n- [Roofline](https://example.org/papers/roofline)\n"
MARKDOWN += "- [Elsewhere](https://unknown.example.com/x)\n"


def test_draft_import_fork_and_upstream_pages_are_valid(
    signed_in: Client, reader: User, other_reader: User, small_catalog: SmallCatalog, tmp_path: Path
) -> None:
    SourceFactory(title="Roofline again", url="https://example.org/papers/roofline")
    origin = create_path(other_reader, "Kernels", visibility="public")
    for source in small_catalog["path"]:
        add_step(origin, other_reader, source)
    signed_in.post(reverse("paths:fork", args=[origin.key]))
    fork = reader.paths.get()
    remove_step(origin, other_reader, present(origin.steps.order_by("position").first()).pk)
    add_step(origin, other_reader, small_catalog["flash"])
    create_path(other_reader, "Shared path", visibility="public")
    pages = {
        "draft-form": signed_in.get("/paths/draft/"),
        "draft": signed_in.get("/paths/draft/", {"goal": "attention kernels"}),
        "draft-nothing": signed_in.get("/paths/draft/", {"goal": "zzqxv"}),
        "import": signed_in.get("/paths/import/"),
        "import-preview": signed_in.post("/paths/import/", {"text": MARKDOWN}),
        "import-error": signed_in.post("/paths/import/", {"text": ""}),
        "fork-confirm": signed_in.get(reverse("paths:fork", args=[origin.key])),
        "fork-list-confirm": signed_in.get(reverse("paths:fork-list", args=["wafer"])),
        "upstream": signed_in.get(reverse("paths:upstream", args=[fork.key])),
        "lists": signed_in.get("/lists/"),
        "list": signed_in.get("/lists/wafer/"),
    }
    documents = {name: response.content.decode() for name, response in pages.items()}
    assert "Take this change" in documents["upstream"]
    assert "Propose it" in documents["import-preview"]
    assert vnu_errors(documents, tmp_path) == {name: [] for name in documents}
