"""Imports are bounded: every BibTeX block counts, @string abbreviations are limited, and
CSL-JSON that nests too deeply or holds huge numbers is refused with a reason, quickly."""

import time

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from accounts.models import User
from library.imports.entries import MAX_ENTRIES, MAX_STRINGS, ImportRefused
from library.imports.parsing import parse_bibtex, parse_csl_json
from library.models import Bookmark
from tests.hints import Response

LONG = "word " * 60


def _strings(count: int) -> str:
    return "".join(f'@string{{s{n} = "{LONG}"}}\n' for n in range(count))


def upload(client: Client, name: str, text: str) -> Response:
    return client.post("/library/import/", {"file": SimpleUploadedFile(name, text.encode())})


def test_ten_thousand_string_definitions_are_refused_at_once() -> None:
    text = _strings(10_000) + "@misc{m, title = s1}\n"
    started = time.monotonic()
    with pytest.raises(ImportRefused) as refused:
        parse_bibtex(text)
    assert time.monotonic() - started < 1
    assert str(refused.value).startswith(
        "The file holds 10,001 blocks (entries, @string, @preamble and @comment); at most 2,000"
    )


def test_string_preamble_and_comment_blocks_count_toward_the_limit() -> None:
    entries = "".join(f"@misc{{k{n}, title = {{T{n}}}}}\n" for n in range(MAX_ENTRIES - 2))
    extra = '@preamble{"x"}\n@comment{a note}\n@string{j = "Journal"}\n'
    with pytest.raises(ImportRefused, match="holds 2,001 blocks"):
        parse_bibtex(entries + extra)
    # One block fewer is read.
    read, _ = parse_bibtex(entries + extra.split("\n", 1)[1])
    assert len(read) == MAX_ENTRIES - 2


def test_string_definitions_are_limited_in_number() -> None:
    expected = f"defines 1,001 @string abbreviations; at most {MAX_STRINGS:,}"
    with pytest.raises(ImportRefused, match=expected):
        parse_bibtex(_strings(MAX_STRINGS + 1) + "@misc{m, title = s1}\n")


def test_what_strings_expand_to_is_bounded() -> None:
    # A few large definitions named by many fields: small on disk, huge once expanded.
    big = "x" * 9_000
    text = f'@string{{b = "{big}"}}\n' + "".join(
        f"@misc{{k{n}, title = b, note = b}}\n" for n in range(1_500)
    )
    started = time.monotonic()
    with pytest.raises(ImportRefused, match="abbreviations expand to more than 10 million"):
        parse_bibtex(text)
    assert time.monotonic() - started < 5


def test_strings_still_fill_the_fields_that_name_them() -> None:
    entries, problems = parse_bibtex(
        '@string{t = "Attention Is All You Need"}\n@misc{m, title = t, year = 2017}\n'
    )
    assert problems == [] and entries[0].title == "Attention Is All You Need"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[" * 100_000 + "]" * 100_000, "nests lists or objects more than 16 levels deep"),
        ("[" * 40 + "]" * 40, "nests lists or objects more than 16 levels deep"),
        ('[{"title": "x", "page": ' + "9" * 5_000 + "}]", "holds a number 5,000 digits long"),
        ('[{"title": "x", "page": -' + "9" * 30 + "}]", "holds a number 31 digits long"),
    ],
    ids=["deep", "deeper-than-needed", "5000-digit-integer", "30-digit-integer"],
)
def test_hostile_csl_json_is_refused_with_a_reason(text: str, message: str) -> None:
    with pytest.raises(ImportRefused, match=message):
        parse_csl_json(text)


def test_an_ordinary_csl_json_item_is_still_read() -> None:
    entries, _ = parse_csl_json(
        '[{"id": "v", "title": "Attention Is All You Need", '
        '"issued": {"date-parts": [[2017, 6, 12]]}}]'
    )
    assert (entries[0].title, entries[0].year) == ("Attention Is All You Need", 2017)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("deep.json", "[" * 50_000 + "]" * 50_000, "levels deep"),
        ("big.json", '[{"title": "x", "page": ' + "1" * 5_000 + "}]", "5,000 digits long"),
        ("strings.bib", _strings(10_000), "holds 10,000 blocks"),
    ],
)
def test_the_upload_form_shows_the_reason_not_an_error_page(
    signed_in: Client, reader: User, name: str, text: str, message: str
) -> None:
    response = upload(signed_in, name, text)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Bookmark.objects.filter(user=reader).exists()


def test_braces_are_dropped_and_latex_commands_decoded() -> None:
    entries, _ = parse_bibtex(
        "@misc{a, title = {{BERT}: Pre-training of Deep~Bidirectional {Transformers}}}\n"
        '@misc{b, title = {Fast {\\"U}bersicht -- a {$\\alpha$} test}}\n'
    )
    assert [entry.title for entry in entries] == [
        "BERT: Pre-training of Deep Bidirectional Transformers",
        "Fast Übersicht \u2013 a $\\alpha$ test",
    ]


def test_a_full_file_of_titles_with_protected_capitals_parses_quickly() -> None:
    title = "{BERT} and {GPT}: {Naïve} Scaling of {LLM} Inference " * 3
    text = "".join(
        f"@article{{k{n}, title = {{{title}}}, author = {{Doe, J. and Roe, R.}}, year = 2020}}\n"
        for n in range(MAX_ENTRIES)
    )
    started = time.monotonic()
    entries, _ = parse_bibtex(text)
    # Every title through the LaTeX decoder took ~20 s on the CI machine.
    assert time.monotonic() - started < 8
    assert len(entries) == MAX_ENTRIES and entries[0].title.startswith("BERT and GPT: Naïve")
