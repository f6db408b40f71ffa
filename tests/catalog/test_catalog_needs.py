"""The practitioners' vocabulary beside a catalog file joins each source's keywords when the
catalog is read, and a slug it names that no source has is refused with the file and line."""

import io
import json
import tomllib
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from catalog.catalog_document import CatalogDocument, CatalogFileError
from catalog.catalog_file import DEFAULT_CATALOG, read_catalog
from catalog.catalog_needs import NEEDS_FILE
from catalog.models import Source
from tests.catalog.test_load_catalog import MINIMAL

NEEDS = """# what readers say
alpha = ["stuck waiting on the card", "The first source."]

beta = ["  pack more users on one card  ", "stuck waiting on the card"]
"""


def write(tmp_path: Path, catalog: str, needs: str | None) -> Path:
    path = tmp_path / "catalog.toml"
    path.write_text(MINIMAL + catalog, encoding="utf-8")
    if needs is not None:
        (tmp_path / NEEDS_FILE).write_text(needs, encoding="utf-8")
    return path


def keywords(doc: CatalogDocument) -> dict[str, str]:
    return {source["slug"]: source["keywords"] for source in doc["sources"]}


def test_phrases_join_the_keywords_after_the_catalogs_own(tmp_path: Path) -> None:
    path = write(tmp_path, "", NEEDS)
    path.write_text(
        path.read_text().replace(
            'summary = "The second source."', 'summary = "The second source."\nkeywords = ["own"]'
        )
    )
    assert keywords(read_catalog(path)) == {
        "alpha": "stuck waiting on the card; The first source.",
        "beta": "own; pack more users on one card; stuck waiting on the card",
    }


def test_a_phrase_the_source_already_has_is_not_repeated(tmp_path: Path) -> None:
    path = write(tmp_path, "", 'beta = ["Own", "new words"]\n')
    path.write_text(
        path.read_text().replace(
            'summary = "The second source."', 'summary = "The second source."\nkeywords = ["own"]'
        )
    )
    assert keywords(read_catalog(path))["beta"] == "own; new words"


def test_without_the_file_the_keywords_are_the_catalogs(tmp_path: Path) -> None:
    assert keywords(read_catalog(write(tmp_path, "", None))) == {"alpha": "", "beta": ""}


def test_an_unknown_slug_names_the_file_the_line_and_the_slug(tmp_path: Path) -> None:
    path = write(tmp_path, "", NEEDS + '\n"gamma" = ["no such source"]\n')
    with pytest.raises(CatalogFileError) as caught:
        read_catalog(path)
    needs = str(tmp_path / NEEDS_FILE)
    assert str(caught.value) == f"{needs}:6: needs 'gamma' names no source in the catalog"


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ('beta = "one phrase"', "must be a list of phrases"),
        ('beta = ["a; b"]', "a phrase may not contain ';'"),
    ],
)
def test_phrases_must_be_a_list_without_separators(
    tmp_path: Path, entry: str, message: str
) -> None:
    path = write(tmp_path, "", f"alpha = []\n{entry}\n")
    with pytest.raises(CatalogFileError) as caught:
        read_catalog(path)
    assert str(caught.value) == f"{tmp_path / NEEDS_FILE}:2: needs 'beta': field 'beta': {message}"


@pytest.mark.django_db
def test_load_catalog_refuses_an_unknown_slug_and_loads_nothing(tmp_path: Path) -> None:
    path = write(tmp_path, "", 'alpah = ["typo"]\n')
    with pytest.raises(CommandError, match=r"needs\.toml:1: needs 'alpah' names no source"):
        call_command("load_catalog", str(path), stdout=io.StringIO(), stderr=io.StringIO())
    assert not Source.objects.exists()


@pytest.mark.django_db
def test_load_catalog_stores_the_merged_keywords(tmp_path: Path) -> None:
    call_command(
        "load_catalog", str(write(tmp_path, "", NEEDS)), stdout=io.StringIO(), stderr=io.StringIO()
    )
    assert Source.objects.get(slug="beta").keyword_list == [
        "pack more users on one card",
        "stuck waiting on the card",
    ]


def test_an_export_is_read_as_it_is(tmp_path: Path) -> None:
    """An export carries the keywords as stored, the vocabulary already in them."""
    (tmp_path / NEEDS_FILE).write_text('alpha = ["would be doubled"]\n')
    path = tmp_path / "export.json"
    raw = tomllib.loads(MINIMAL)
    for source in raw["sources"]:
        source["keywords"] = "stored"
    path.write_text(json.dumps(raw))
    assert keywords(read_catalog(path)) == {"alpha": "stored", "beta": "stored"}


def test_every_shipped_source_has_practitioners_phrases() -> None:
    with (DEFAULT_CATALOG.parent / NEEDS_FILE).open("rb") as file:
        needs = tomllib.load(file)
    with DEFAULT_CATALOG.open("rb") as file:
        slugs = [source["slug"] for source in tomllib.load(file)["sources"]]
    assert sorted(needs) == sorted(slugs)
    assert all(6 <= len(phrases) <= 12 for phrases in needs.values())
    shipped = keywords(read_catalog())
    assert all(needs[slug][0] in shipped[slug] for slug in slugs)
