"""The catalog file's identifiers and full records: validated, stored, exported, read back."""

import datetime
import io
import json
import re
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from catalog.models import Source

from .test_load_catalog import MINIMAL, load, write

pytestmark = pytest.mark.django_db

FULL_RECORD = MINIMAL.replace(
    'summary = "The first source."',
    """summary = "The first source."
full_title = "Alpha: A Complete Title for the First Source"
authors = "Ada Lovelace, Charles Babbage"
year = 2022
doi = "10.1145/3600006.3613165"
verified_from = { url = "https://arxiv.org/abs/2205.14135", on = 2026-12-02 }""",
).replace(
    'related = ["alpha"]',
    """related = ["alpha"]
isbn = "978-0-306-40615-7"
repository = "example/beta\"""",
)


def test_full_record_is_stored_with_identifiers_from_file_and_url(tmp_path: Path) -> None:
    load(write(tmp_path, FULL_RECORD))
    alpha, beta = Source.objects.get(slug="alpha"), Source.objects.get(slug="beta")
    assert alpha.full_title == "Alpha: A Complete Title for the First Source"
    assert alpha.arxiv_id == "2205.14135"  # named by its URL
    assert alpha.doi == "10.1145/3600006.3613165"
    assert alpha.verified_from_url == "https://arxiv.org/abs/2205.14135"
    assert alpha.verified_from_date == datetime.date(2026, 12, 2)
    assert (beta.isbn, beta.repository) == ("9780306406157", "example/beta")


def test_export_carries_the_fields_and_loads_back_unchanged(tmp_path: Path) -> None:
    load(write(tmp_path, FULL_RECORD))
    first = tmp_path / "first.json"
    call_command("export_catalog", output=str(first), stderr=io.StringIO())
    exported = {s["slug"]: s for s in json.loads(first.read_text())["sources"]}
    assert exported["alpha"]["arxiv"] == "2205.14135"
    assert exported["alpha"]["doi"] == "10.1145/3600006.3613165"
    assert exported["alpha"]["verified_from"] == {
        "url": "https://arxiv.org/abs/2205.14135",
        "on": "2026-12-02",
    }
    assert exported["beta"]["isbn"] == "9780306406157"
    output = load(first)
    assert "sources: 0 created, 0 updated, 2 unchanged" in output


def _alpha(extra: str) -> str:
    first = 'summary = "The first source."'
    return MINIMAL.replace(first, f"{first}\n{extra}")


BAD_IDENTIFIERS = [
    ("arxiv", _alpha('arxiv = "2205.14135v2"'), r"field 'arxiv': '2205.14135v2' is not an arXiv"),
    ("doi", _alpha('doi = "https://doi.org/10.1/x"'), r"field 'doi': .* is not a bare DOI"),
    ("isbn", _alpha('isbn = "9780306406158"'), r"field 'isbn': .*check digit"),
    ("repository", _alpha('repository = "not a repo"'), r"field 'repository': .*owner/name"),
    (
        "verified_from",
        _alpha('verified_from = { url = "https://example.org:99999/" }'),
        r"field 'verified_from': url: .*[Pp]ort",
    ),
    (
        "shared arxiv",
        MINIMAL.replace('related = ["alpha"]', 'related = ["alpha"]\narxiv = "2205.14135"'),
        r"source 'beta': field 'arxiv': arxiv:2205\.14135 is also source 'alpha'",
    ),
    (
        "shared url without www",
        MINIMAL.replace("https://example.org/beta/", "https://www.arxiv.org/abs/2205.14135"),
        r"source 'beta': field 'url': .*2205\.14135 is also source 'alpha'",
    ),
]


@pytest.mark.parametrize(
    ("case", "text", "message"), BAD_IDENTIFIERS, ids=[c[0] for c in BAD_IDENTIFIERS]
)
def test_bad_identifiers_name_file_entry_and_field_and_load_nothing(
    tmp_path: Path, case: str, text: str, message: str
) -> None:
    load(write(tmp_path, MINIMAL))
    before = list(Source.objects.order_by("slug").values_list("slug", "doi", "arxiv_id"))
    with pytest.raises(CommandError) as error:
        load(write(tmp_path, text, name="bad.toml"))
    assert re.search(r"bad\.toml:\d+: source '(alpha|beta)'", str(error.value)), str(error.value)
    assert re.search(message, str(error.value)), str(error.value)
    assert list(Source.objects.order_by("slug").values_list("slug", "doi", "arxiv_id")) == before


def test_a_github_url_that_is_not_the_repository_root_names_no_repository(tmp_path: Path) -> None:
    text = MINIMAL.replace("https://example.org/beta/", "https://github.com/o/r/blob/main/x.md")
    load(write(tmp_path, text))
    assert Source.objects.get(slug="beta").repository == ""
