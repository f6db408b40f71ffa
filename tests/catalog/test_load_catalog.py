"""load_catalog: idempotent, updates in place, keeps what readers use, refuses bad files."""

import io
import json
import re
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from pytest_django import DjangoCaptureOnCommitCallbacks

from catalog.catalog_file import DEFAULT_CATALOG
from catalog.models import ListEntry, ReadingList, Source, Tier, Topic
from readinglist.pagecache import catalog_version
from tests.hints import found

pytestmark = pytest.mark.django_db

MINIMAL = """
[[tiers]]
slug = "core"
name = "Core"

[[topics]]
slug = "kernels"
name = "Kernels"

[[lists]]
slug = "demo"
title = "Demo list"

[[lists.sections]]
slug = "main"
title = "Main"
entries = ["alpha", {source = "beta", label = "Beta, as printed"}]

[[sources]]
slug = "alpha"
title = "Alpha"
url = "https://arxiv.org/pdf/2205.14135v2"
kind = "paper"
basis = "mechanism-paper"
tier = "core"
topics = ["kernels"]
summary = "The first source."

[[sources]]
slug = "beta"
title = "Beta"
url = "https://example.org/beta/"
kind = "repository"
basis = "implementation"
tier = "core"
topics = ["kernels"]
summary = "The second source."
related = ["alpha"]
"""


def load(path: Path, **kwargs: object) -> str:
    out = io.StringIO()
    call_command("load_catalog", str(path), stdout=out, stderr=io.StringIO(), **kwargs)
    return out.getvalue()


def write(tmp_path: Path, text: str, name: str = "catalog.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_loads_canonicalises_and_links(tmp_path: Path) -> None:
    output = load(write(tmp_path, MINIMAL))
    assert "sources: 2 created" in output
    alpha = Source.objects.get(slug="alpha")
    assert alpha.url == "https://arxiv.org/abs/2205.14135"
    assert alpha.related.filter(slug="beta").exists()
    assert ListEntry.objects.get(source__slug="beta").label == "Beta, as printed"


def test_second_run_changes_nothing_and_says_so(tmp_path: Path) -> None:
    path = write(tmp_path, MINIMAL)
    load(path)
    before = list(Source.objects.values_list("slug", "updated"))
    output = load(path)
    assert "Nothing to change" in output
    assert "sources: 0 created, 0 updated, 2 unchanged" in output
    assert list(Source.objects.values_list("slug", "updated")) == before


def test_edited_file_updates_in_place(tmp_path: Path) -> None:
    load(write(tmp_path, MINIMAL))
    pk = Source.objects.get(slug="alpha").pk
    edited = MINIMAL.replace('title = "Alpha"', 'title = "Alpha, revised"').replace(
        'entries = ["alpha", {source = "beta", label = "Beta, as printed"}]',
        'entries = ["beta", "alpha"]',
    )
    output = load(write(tmp_path, edited))
    assert "sources: 0 created, 1 updated" in output
    alpha = Source.objects.get(slug="alpha")
    assert (alpha.pk, alpha.title) == (pk, "Alpha, revised")
    order = ListEntry.objects.filter(section__slug="main").order_by("position")
    assert [e.source.slug for e in order] == ["beta", "alpha"]


def test_removed_source_is_deleted_when_nothing_refers_to_it(tmp_path: Path) -> None:
    load(write(tmp_path, MINIMAL))
    without_beta = MINIMAL.split('[[sources]]\nslug = "beta"')[0].replace(
        ', {source = "beta", label = "Beta, as printed"}', ""
    )
    output = load(write(tmp_path, without_beta))
    assert "deleted" in output and not Source.objects.filter(slug="beta").exists()


def test_full_catalog_loads_twice_idempotently(db: None) -> None:
    first = load(DEFAULT_CATALOG)
    assert re.search(r"sources: \d{3} created", first)
    second = load(DEFAULT_CATALOG)
    assert "Nothing to change" in second


@pytest.mark.parametrize(
    "given",
    [
        '["model sharding", " splitting layers across GPUs "]',
        '"model sharding;splitting layers across GPUs; "',
    ],
)
def test_keywords_load_from_a_list_or_a_semicolon_separated_string(
    tmp_path: Path, given: str
) -> None:
    load(
        write(
            tmp_path,
            MINIMAL.replace('summary = "The first', f'keywords = {given}\nsummary = "The first'),
        )
    )
    alpha = Source.objects.get(slug="alpha")
    assert alpha.keywords == "model sharding; splitting layers across GPUs"
    assert alpha.keyword_list == ["model sharding", "splitting layers across GPUs"]
    assert Source.objects.get(slug="beta").keywords == ""


def test_round_trip_through_an_export_into_an_empty_database(tmp_path: Path) -> None:
    load(DEFAULT_CATALOG)
    first = tmp_path / "first.json"
    call_command("export_catalog", output=str(first), stderr=io.StringIO())
    ReadingList.objects.all().delete()
    Source.objects.all().delete()
    Topic.objects.update(parent=None)
    Topic.objects.all().delete()
    Tier.objects.all().delete()
    load(first)
    second = tmp_path / "second.json"
    call_command("export_catalog", output=str(second), stderr=io.StringIO())
    assert json.loads(first.read_text()) == json.loads(second.read_text())
    exported = {s["slug"]: s for s in json.loads(first.read_text())["sources"]}
    assert "model sharding" in exported["megatron-lm"]["keywords"]


BAD_FILES = [
    (
        "keywords not phrases",
        MINIMAL.replace('summary = "The first', 'keywords = 3\nsummary = "The first'),
        r"source 'alpha': field 'keywords': must be a list of phrases",
    ),
    (
        "semicolon inside a keyword",
        MINIMAL.replace('summary = "The first', 'keywords = ["a; b"]\nsummary = "The first'),
        r"source 'alpha': field 'keywords': a phrase may not contain ';'",
    ),
    (
        "bad toml",
        MINIMAL.replace('name = "Core"', 'name = "Core'),
        r"bad\.toml:4: file is not valid TOML",
    ),
    (
        "missing title",
        MINIMAL.replace('title = "Alpha"\n', ""),
        r":\d+: source 'alpha': field 'title': is required",
    ),
    (
        "unknown tier",
        MINIMAL.replace(
            'tier = "core"\ntopics = ["kernels"]\nsummary = "The first',
            'tier = "coer"\ntopics = ["kernels"]\nsummary = "The first',
        ),
        r"source 'alpha': field 'tier': unknown tier 'coer'",
    ),
    (
        "unknown topic",
        MINIMAL.replace(
            'topics = ["kernels"]\nsummary = "The second',
            'topics = ["kernel"]\nsummary = "The second',
        ),
        r"source 'beta': field 'topics': unknown topic 'kernel'",
    ),
    (
        "duplicate url",
        MINIMAL.replace("https://example.org/beta/", "https://arxiv.org/abs/2205.14135v1"),
        r"source 'beta': field 'url': https://arxiv.org/abs/2205.14135 is also source 'alpha'",
    ),
    (
        "url with space",
        MINIMAL.replace("https://example.org/beta/", "https://example.org/paper files/beta"),
        r"source 'beta': field 'url': A URL may not contain spaces",
    ),
    (
        "unknown entry",
        MINIMAL.replace('entries = ["alpha"', 'entries = ["gamma"'),
        r"section 'main': field 'entries': unknown source 'gamma'",
    ),
]


@pytest.mark.parametrize(("case", "text", "message"), BAD_FILES, ids=[c[0] for c in BAD_FILES])
def test_bad_files_stop_the_load_naming_file_line_and_field(
    tmp_path: Path, case: str, text: str, message: str
) -> None:
    load(write(tmp_path, MINIMAL))
    before = list(Source.objects.order_by("slug").values_list("slug", "title", "url"))
    with pytest.raises(CommandError) as error:
        load(write(tmp_path, text, name="bad.toml"))
    assert "bad.toml" in str(error.value)
    assert re.search(message, str(error.value)), str(error.value)
    assert "Nothing was loaded" in str(error.value)
    assert list(Source.objects.order_by("slug").values_list("slug", "title", "url")) == before


def test_missing_title_points_at_the_right_line(tmp_path: Path) -> None:
    text = MINIMAL.replace('title = "Beta"\n', "")
    with pytest.raises(CommandError) as error:
        load(write(tmp_path, text))
    line = int(found(re.search(r"catalog\.toml:(\d+):", str(error.value)))[1])
    assert text.splitlines()[line - 1] == "[[sources]]"
    assert 'slug = "beta"' in text.splitlines()[line]


def test_missing_file_is_reported(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="cannot be read"):
        load(tmp_path / "nope.toml")


def test_a_section_filled_by_a_load_replaces_the_catalog_version(
    tmp_path: Path, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    """Entries are bulk-created, which sends no signal: the load itself replaces the version."""
    empty = MINIMAL.replace(
        'entries = ["alpha", {source = "beta", label = "Beta, as printed"}]', "entries = []"
    )
    load(write(tmp_path, empty))
    before = catalog_version()
    with django_capture_on_commit_callbacks(execute=True):
        load(write(tmp_path, MINIMAL))
    assert ListEntry.objects.filter(section__slug="main").count() == 2
    assert catalog_version() != before


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    ("stdout", "stderr", "bar_shown"),
    [(Terminal, Terminal, True), (io.StringIO, Terminal, False), (Terminal, io.StringIO, False)],
    ids=["terminal", "stdout-redirected", "stderr-redirected"],
)
def test_the_progress_bar_shows_only_on_a_terminal(
    tmp_path: Path, stdout: type[io.StringIO], stderr: type[io.StringIO], bar_shown: bool
) -> None:
    out, err = stdout(), stderr()
    call_command("load_catalog", str(write(tmp_path, MINIMAL)), stdout=out, stderr=err)
    assert ("sources [" in err.getvalue()) is bar_shown
    assert "sources: 2 created" in out.getvalue()
