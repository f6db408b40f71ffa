"""catalog.identity: every spelling of a work's URL or identifier gives the same keys, and
hostile input raises nothing but InvalidURL."""

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from catalog.identity import (
    InvalidIdentifier,
    arxiv_in_prose,
    check_arxiv,
    check_doi,
    check_isbn,
    check_repository,
    work_keys,
)
from catalog.urlcanon import InvalidURL, canonical_url

SAME_WORK = {
    "arxiv:2403.02310": [
        "2403.02310",
        "arXiv:2403.02310v2",
        "arxiv: 2403.02310",
        "https://arxiv.org/abs/2403.02310",
        "https://arxiv.org/abs/2403.02310v3",
        "http://www.arxiv.org/pdf/2403.02310v1.pdf",
        "https://arxiv.org/html/2403.02310v2",
        "https://export.arxiv.org/abs/2403.02310",
        "https://doi.org/10.48550/arXiv.2403.02310",
    ],
    "doi:10.1145/3600006.3613165": [
        "10.1145/3600006.3613165",
        "doi:10.1145/3600006.3613165",
        "https://doi.org/10.1145/3600006.3613165",
        "https://dx.doi.org/10.1145/3600006.3613165",
        "https://dl.acm.org/doi/10.1145/3600006.3613165",
        "https://dl.acm.org/doi/pdf/10.1145/3600006.3613165",
        "https://dl.acm.org/doi/abs/10.1145/3600006.3613165?utm_source=x#sec2",
    ],
    "doi:10.1007/978-3-031-12345-6_7": [
        "https://link.springer.com/chapter/10.1007/978-3-031-12345-6_7",
        "https://link.springer.com/content/pdf/10.1007/978-3-031-12345-6_7.pdf",
    ],
    "repository:vllm-project/vllm": [
        "https://github.com/vllm-project/vllm",
        "https://www.github.com/vllm-project/vllm/",
        "https://GitHub.com/vllm-project/vllm.git",
        "https://github.com/vllm-project/vllm/tree/main/docs",
        "https://github.com/vllm-project/vllm/blob/main/README.md",
        "https://github.com/vllm-project/vllm/releases/tag/v0.6.0",
        "https://github.com/vllm-project/vllm?utm_source=newsletter&fbclid=abc",
        "https://github.com/VLLM-Project/vLLM",
    ],
    "openreview:AbCdEf123": [
        "https://openreview.net/forum?id=AbCdEf123",
        "https://openreview.net/pdf?id=AbCdEf123",
        "https://openreview.net/forum?id=AbCdEf123&noteId=xyz#discussion",
    ],
    "isbn:9780306406157": [
        "9780306406157",
        "978-0-306-40615-7",
        "0-306-40615-2",
        "ISBN 0306406152",
    ],
}


@pytest.mark.parametrize(
    ("key", "spelling"), [(key, s) for key, spellings in SAME_WORK.items() for s in spellings]
)
def test_every_spelling_names_the_work(key: str, spelling: str) -> None:
    assert key.casefold() in {k.casefold() for k in work_keys(spelling).keys}


@pytest.mark.parametrize(
    "spelling",
    [
        "https://example.org/post?utm_source=x&utm_medium=y&id=7#comments",
        "https://www.example.org/post/?id=7&fbclid=1&gclid=2&ref=hn&mc_cid=3",
        "HTTPS://EXAMPLE.ORG:443/post?id=7",
    ],
)
def test_tracking_parameters_fragments_case_and_www_are_noise(spelling: str) -> None:
    assert work_keys(spelling).canonical_url == "https://example.org/post?id=7"


def test_a_repository_subpage_is_not_the_repository_itself() -> None:
    assert work_keys("https://github.com/o/r").is_repository_root
    assert not work_keys("https://github.com/o/r/tree/main").is_repository_root
    assert work_keys("https://github.com/orgs/o").repository == ""


@pytest.mark.parametrize(
    "hostile",
    [
        "http://example.com:99999/",
        "http://[::1/",
        "http://example.com:0/",
        "http://example.com:abc/",
        "http://a:b:c/",
        "http://[zz]/",
        "javascript:alert(1)",
        "http://exa\x00mple.com/",
        "https://",
        "garbage",
    ],
)
def test_hostile_input_is_a_clear_invalid_url(hostile: str) -> None:
    with pytest.raises(InvalidURL) as error:
        work_keys(hostile)
    assert str(error.value)


def test_an_ipv6_host_keeps_its_brackets() -> None:
    assert canonical_url("http://[2001:db8::1]/x/") == "http://[2001:db8::1]/x"
    assert canonical_url("http://[2001:DB8::1]:8080/") == "http://[2001:db8::1]:8080"


@pytest.mark.parametrize(
    ("check", "good", "stored"),
    [
        (check_arxiv, "1706.03762", "1706.03762"),
        (check_arxiv, "cs/0101001", "cs/0101001"),
        (check_doi, "10.1145/3600006.3613165", "10.1145/3600006.3613165"),
        (check_doi, "10.48550/arXiv.1706.03762", "10.48550/arxiv.1706.03762"),
        (check_isbn, "9780323912310", "9780323912310"),
        (check_isbn, "0306406152", "9780306406157"),
        (check_repository, "vllm-project/vllm", "vllm-project/vllm"),
    ],
)
def test_identifier_checks_accept_and_normalise(
    check: Callable[[str], str], good: str, stored: str
) -> None:
    assert check(good) == stored


@pytest.mark.parametrize(
    ("check", "bad"),
    [
        (check_arxiv, "1706.03762v5"),
        (check_arxiv, "arXiv:1706.03762"),
        (check_doi, "https://doi.org/10.1145/1"),
        (check_doi, "10.12/x"),
        (check_isbn, "9780323912311"),
        (check_isbn, "0306406153"),
        (check_repository, "https://github.com/a/b"),
        (check_repository, "a/b/c"),
    ],
)
def test_identifier_checks_refuse_bad_syntax_and_check_digits(
    check: Callable[[str], str], bad: str
) -> None:
    with pytest.raises(InvalidIdentifier):
        check(bad)


_url_text = st.one_of(
    st.text(max_size=80),
    st.builds(
        lambda scheme, host, port, path, query: f"{scheme}://{host}{port}{path}{query}",
        st.sampled_from(["http", "https", "HTTP", "ftp", ""]),
        st.one_of(
            st.from_regex(r"[A-Za-z0-9.\-]{0,20}", fullmatch=True),
            st.from_regex(r"\[[0-9a-fA-F:.]{0,20}\]?", fullmatch=True),
            st.text(max_size=10),
        ),
        st.one_of(st.just(""), st.from_regex(r":[0-9]{0,7}", fullmatch=True), st.text(max_size=5)),
        st.text(max_size=30),
        st.one_of(st.just(""), st.from_regex(r"\?[a-z_=&0-9]{0,30}", fullmatch=True)),
    ),
)


@settings(max_examples=400, deadline=None)
@given(_url_text)
def test_canonicaliser_raises_only_invalid_url_and_is_idempotent(text: str) -> None:
    try:
        url = canonical_url(text)
    except InvalidURL:
        return
    assert canonical_url(url) == url
    assert "#" not in url and "utm_" not in url.split("?", 1)[-1][:4]


@settings(max_examples=400, deadline=None)
@given(_url_text)
def test_identity_raises_only_invalid_url_and_is_stable(text: str) -> None:
    try:
        keys = work_keys(text)
    except InvalidURL:
        return
    if keys.url:
        assert set(work_keys(keys.url).keys) >= {k for k in keys.keys if not k.startswith("url:")}


@pytest.mark.parametrize(
    ("texts", "expected"),
    [
        (("arXiv preprint arXiv:2009.03300",), "2009.03300"),
        (("", "See arXiv:2403.02310v2 for the long version"), "2403.02310"),
        (("arXiv 1706.03762",), "1706.03762"),
        (("ARXIV:hep-th/9901001",), "hep-th/9901001"),
        (("arXiv preprint", "Proceedings of ICML 2023"), ""),
        (("2009.03300 without its archive",), ""),
    ],
)
def test_an_arxiv_id_is_found_where_a_reference_cites_it_in_words(
    texts: tuple[str] | tuple[str, str], expected: str
) -> None:
    assert arxiv_in_prose(*texts) == expected
