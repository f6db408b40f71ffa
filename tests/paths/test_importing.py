"""A Markdown list of links matched to the catalog: what is read, how each link is matched, and
what a bad file gets."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pytest_django import DjangoAssertNumQueries

from catalog.models import Source
from paths.importing import (
    MAX_CHARS,
    MAX_LINKS,
    ImportedLink,
    ImportResult,
    match_markdown,
    read_links,
)
from tests.factories import SourceFactory

README = """# Awesome inference [![Awesome](https://awesome.re/badge.svg)](https://awesome.re)

<p align="center"><a href="https://github.com/vllm-project/vllm">vLLM on GitHub</a></p>

## Contents
- [Papers](#papers) · [Contributing](./CONTRIBUTING.md) · [Mail us](mailto:list@example.org)

## Papers
- [FlashAttention](https://arxiv.org/pdf/2205.14135v2.pdf): tiled attention.
- Paged memory, https://arxiv.org/abs/2309.06180.
- [GPTQ][gptq], and [GPTQ again][gptq].
- [The same paper's abstract page](https://arxiv.org/abs/2205.14135)

## Books and tools
- <https://www.github.com/sgl-project/sglang/tree/main/python>
- [PMPP](isbn:0-306-40615-2)
- [DOI link](https://dx.doi.org/10.1145/3600006.3613165)
- [A blog](http://example.com/post/?utm_source=newsletter)
- [Not in the catalog](https://blog.example.net/kv-cache)

[gptq]: https://arxiv.org/abs/2210.17323v2
"""


@pytest.fixture
def catalog(db: None) -> dict[str, Source]:
    sources = {
        "flashattention": {"url": "https://arxiv.org/abs/2205.14135"},
        "pagedattention": {"url": "https://arxiv.org/abs/2309.06180"},
        "gptq": {"url": "https://openreview.net/forum?id=tcbBPnfwxS", "arxiv_id": "2210.17323"},
        "vllm": {"url": "https://github.com/vllm-project/vllm"},
        "sglang": {"url": "https://github.com/sgl-project/sglang"},
        "pmpp": {"url": "https://example.org/pmpp", "isbn": "9780306406157"},
        "orca": {"url": "https://example.org/orca", "doi": "10.1145/3600006.3613165"},
        "blog": {"url": "https://www.example.com/post"},  # canonical, as the loader stores it
    }
    return {
        slug: SourceFactory(slug=slug, title=slug.title(), **fields)
        for slug, fields in sources.items()
    }


def slug_of(link: ImportedLink) -> str:
    """The slug of a matched link's source (matched links have one)."""
    assert link.source is not None
    return link.source.slug


def by_url(result: ImportResult) -> dict[str, str | None]:
    return {
        link.url: slug_of(link) if link.source else None
        for link in result.matched + result.unmatched
    }


def test_each_kind_of_link_is_read_in_order_under_its_heading(catalog: dict[str, Source]) -> None:
    result = match_markdown(README)

    assert [(slug_of(link), link.section) for link in result.matched] == [
        ("vllm", "Awesome inference"),
        ("flashattention", "Papers"),
        ("pagedattention", "Papers"),
        ("gptq", "Papers"),
        ("sglang", "Books and tools"),
        ("pmpp", "Books and tools"),
        ("orca", "Books and tools"),
        ("blog", "Books and tools"),
    ]
    assert [(link.text, link.source) for link in result.unmatched] == [("Not in the catalog", None)]
    assert result.errors == []


def test_links_keep_the_words_a_reader_gave_them(catalog: dict[str, Source]) -> None:
    texts = {slug_of(link): link.text for link in match_markdown(README).matched}

    assert texts["vllm"] == "vLLM on GitHub"
    assert texts["flashattention"] == "FlashAttention"
    assert texts["gptq"] == "GPTQ"
    assert texts["pagedattention"] == "https://arxiv.org/abs/2309.06180"


def test_a_work_linked_twice_is_kept_once_where_it_first_appears(
    catalog: dict[str, Source],
) -> None:
    result = match_markdown(README)

    assert [slug_of(link) for link in result.matched].count("flashattention") == 1
    assert "https://arxiv.org/abs/2205.14135" not in by_url(result)
    assert "https://arxiv.org/abs/2210.17323v2" in by_url(result)


def test_the_pages_own_anchors_mail_and_badges_are_passed_over(catalog: dict[str, Source]) -> None:
    urls = by_url(match_markdown(README))

    assert not any(url.startswith(("#", "./", "mailto:", "https://awesome.re")) for url in urls)


@pytest.mark.parametrize(
    ("link", "slug"),
    [
        ("https://arxiv.org/abs/2205.14135v3", "flashattention"),
        ("https://arxiv.org/html/2205.14135", "flashattention"),
        ("http://export.arxiv.org/abs/2205.14135", "flashattention"),
        ("arXiv:2205.14135", "flashattention"),
        ("https://doi.org/10.48550/arXiv.2205.14135", "flashattention"),
        ("https://arxiv.org/pdf/2210.17323", "gptq"),
        ("doi:10.1145/3600006.3613165", "orca"),
        ("https://dl.acm.org/doi/pdf/10.1145/3600006.3613165", "orca"),
        ("isbn:978-0-306-40615-7", "pmpp"),
        ("https://GitHub.com/vllm-project/vllm/releases", "vllm"),
        ("https://github.com/vllm-project/vllm.git", "vllm"),
        ("https://example.com/post?fbclid=abc", "blog"),
        ("HTTP://WWW.EXAMPLE.COM/post/", "blog"),
    ],
)
def test_every_name_of_a_work_finds_its_source(
    catalog: dict[str, Source], link: str, slug: str
) -> None:
    result = match_markdown(f"- [a link]({link})\n")

    assert [slug_of(match) for match in result.matched] == [slug]


def test_a_retired_source_is_not_matched(catalog: dict[str, Source]) -> None:
    Source.objects.filter(slug="vllm").update(status=Source.Status.RETIRED)

    result = match_markdown("[vLLM](https://github.com/vllm-project/vllm)")

    assert result.matched == []
    assert [link.text for link in result.unmatched] == ["vLLM"]


@pytest.mark.parametrize("count", [10, 600])
def test_matching_runs_one_query_whatever_the_number_of_links(
    catalog: dict[str, Source], django_assert_num_queries: DjangoAssertNumQueries, count: int
) -> None:
    text = "\n".join(f"- [paper {n}](https://arxiv.org/abs/2401.{n:05d})" for n in range(count))
    text += "\n- [FlashAttention](https://arxiv.org/abs/2205.14135)\n"

    with django_assert_num_queries(1):
        result = match_markdown(text)

    assert len(result.unmatched) == count
    assert [slug_of(link) for link in result.matched] == ["flashattention"]


def test_a_text_without_links_runs_no_query(
    db: None, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    with django_assert_num_queries(0):
        result = match_markdown("# Notes\n\nNothing to read here, see [below](#below).\n")

    assert result == ImportResult([], [], [])


def test_five_thousand_links_read_the_first_thousand_and_name_the_rest(db: None) -> None:
    text = "".join(f"- [post {n}](https://example.org/posts/{n})\n" for n in range(5000))

    result = match_markdown(text)

    assert len(result.unmatched) == MAX_LINKS == 1000
    assert result.unmatched[-1].url == "https://example.org/posts/999"
    assert result.errors == [
        "The text links to 5,000 addresses: the first 1,000 were read, and 4,000 more from "
        "https://example.org/posts/1000 on were skipped. Split the list and import the rest "
        "separately."
    ]


def test_a_ten_megabyte_text_is_read_only_as_far_as_the_cap(db: None) -> None:
    text = (
        "[first](https://example.org/first)\n"
        + "x" * 10_000_000
        + "\n[last](https://example.org/last)"
    )

    result = match_markdown(text)

    assert [link.text for link in result.unmatched] == ["first"]
    assert result.errors == [
        f"The text is {len(text):,} characters long: only the first {MAX_CHARS:,} were read. "
        "Split it and import the rest separately."
    ]


@pytest.mark.parametrize(
    "data",
    [
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
        b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\x00",
        "# Notes\x00\x01\x02 [x](https://example.org)",
    ],
)
def test_a_binary_file_gets_a_clear_message(db: None, data: bytes | str) -> None:
    result = match_markdown(data)

    assert result.matched == result.unmatched == []
    assert result.errors == [
        "This file is not text: it looks like a binary file (an image, a PDF, an archive). "
        "Import the Markdown file itself (.md or .txt)."
    ]


def test_a_file_that_is_not_utf8_gets_a_clear_message(db: None) -> None:
    result = match_markdown("- [Café notes](https://example.org/caf\xe9)\n".encode("latin-1"))

    assert result.matched == result.unmatched == []
    assert result.errors == [
        "This file is not UTF-8 text (byte 0xe9 at position 6 cannot be read). "
        "Save it as UTF-8 and import it again."
    ]


def test_text_decoded_with_escaped_bytes_gets_the_same_message(db: None) -> None:
    text = b"- [Caf\xe9](https://example.org/)".decode("utf-8", "surrogateescape")

    assert match_markdown(text).errors == [
        "This file is not UTF-8 text. Save it as UTF-8 and import it again."
    ]


def test_utf8_bytes_with_a_byte_order_mark_are_read(catalog: dict[str, Source]) -> None:
    data = "\ufeff# Lecturas\n- [Atención](https://arxiv.org/abs/2205.14135)\n".encode()

    result = match_markdown(data)

    assert [(link.text, link.section) for link in result.matched] == [("Atención", "Lecturas")]


def test_an_address_that_is_not_on_the_web_is_named_and_skipped(db: None) -> None:
    result = match_markdown(
        "- [files](ftp://files.example.org/list)\n- [ok](https://example.org)\n"
    )

    assert [link.url for link in result.unmatched] == ["https://example.org"]
    assert len(result.errors) == 1
    assert result.errors[0].startswith("“ftp://files.example.org/list” is not a web address")


def test_a_bare_address_leaves_the_sentences_punctuation(db: None) -> None:
    links = read_links("See https://example.org/a_(b). Also (https://example.org/c), done!").links

    assert [link.url for link in links] == ["https://example.org/a_(b)", "https://example.org/c"]


# Markdown a reader might paste: any text at all, and lists of links under headings.
_words = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=30
)
_paths = st.from_regex(r"[a-z0-9]{1,12}(/[a-z0-9]{1,8}){0,2}", fullmatch=True)


@given(st.one_of(st.text(max_size=400), st.binary(max_size=400)))
@settings(max_examples=150, deadline=None)
def test_reading_any_text_never_raises_and_finds_only_addresses(text: str) -> None:
    scan = read_links(text)

    for link in scan.links:
        assert link.url
        assert ":" in link.url


@given(
    st.lists(
        st.tuples(
            st.from_regex(r"[A-Z][a-z]{2,10}", fullmatch=True),
            st.lists(st.tuples(_words, _paths), min_size=1, max_size=5),
        ),
        min_size=1,
        max_size=4,
    )
)
@settings(max_examples=60, deadline=None)
def test_links_come_back_in_order_once_each_under_their_heading(
    sections: list[tuple[str, list[tuple[str, str]]]],
) -> None:
    lines: list[str] = []
    expected: list[tuple[str, str]] = []
    for title, links in sections:
        lines.append(f"\n## {title}\n")
        for words, path in links:
            url = f"https://example.org/{path}"
            label = "".join(c for c in words if c not in "[]()<>`*_\\!&#").strip() or "link"
            lines.append(f"- [{label}]({url}) and more words")
            if url not in [u for u, _ in expected]:
                expected.append((url, title))

    found = read_links("\n".join(lines)).links

    assert [(link.url, link.section) for link in found] == expected


@given(st.text(max_size=200))
@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
def test_matching_any_text_never_raises(catalog: dict[str, Source], text: str) -> None:
    result = match_markdown(text)

    assert all(link.source is not None for link in result.matched)
    assert all(link.source is None for link in result.unmatched)


def test_two_pages_of_one_repository_are_two_links(catalog: dict[str, Source]) -> None:
    SourceFactory(slug="vllm-docs", url="https://github.com/vllm-project/vllm/blob/main/docs/a.md")
    text = (
        "- [Docs](https://github.com/vllm-project/vllm/blob/main/docs/a.md)\n"
        "- [Other docs](https://github.com/vllm-project/vllm/blob/main/docs/b.md)\n"
        "- [Repository](https://github.com/vllm-project/vllm)\n"
    )

    result = match_markdown(text)

    assert [(link.text, slug_of(link)) for link in result.matched] == [
        ("Docs", "vllm-docs"),
        ("Other docs", "vllm"),
    ]
    assert result.unmatched == []
