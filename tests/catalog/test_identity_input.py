"""Identity input is normalised and bounded before it is matched: compatibility forms and any
script's digits name the same work as plain ASCII, look-alike hosts are different hosts and are
flagged, invisible control characters are refused, and an over-long input is refused at once."""

import time
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from catalog.identity import MAX_IDENTITY_CHARS, work_keys
from catalog.urlcanon import InvalidURL, canonical_url

# Each script's zero; its nine successors follow it in Unicode.
ZEROS = {"full-width": 0xFF10, "Arabic-Indic": 0x0660, "Devanagari": 0x0966, "Bengali": 0x09E6}


def in_digits(text: str, zero: int) -> str:
    return "".join(chr(zero + int(c)) if c.isascii() and c.isdigit() else c for c in text)


def full_width(text: str) -> str:
    """Every printable ASCII character as its full-width form (what some keyboards type)."""
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


@pytest.mark.parametrize(
    ("spelling", "key"),
    [
        (full_width("2403.02310"), "arxiv:2403.02310"),
        (
            "arXiv\uff1a\uff12\uff14\uff10\uff13\uff0e\uff10\uff12\uff13\uff11\uff10\uff56\uff12",
            "arxiv:2403.02310",
        ),
        (in_digits("2403.02310", ZEROS["Arabic-Indic"]), "arxiv:2403.02310"),
        (full_width("https://arxiv.org/abs/2403.02310"), "arxiv:2403.02310"),
        ("https://arxiv.org/abs/" + in_digits("2403.02310", 0x0966), "arxiv:2403.02310"),
        (
            "\uff11\uff10.\uff11\uff11\uff14\uff15/\uff13\uff16\uff10\uff10\uff10\uff10\uff16.\uff13\uff16\uff11\uff13\uff11\uff16\uff15",
            "doi:10.1145/3600006.3613165",
        ),
        (
            "https://doi.org/" + in_digits("10.1145/3600006.3613165", 0x0660),
            "doi:10.1145/3600006.3613165",
        ),
        (in_digits("978-0-306-40615-7", 0x09E6), "isbn:9780306406157"),
        ("ISBN " + full_width("0306406152"), "isbn:9780306406157"),
    ],
)
def test_compatibility_forms_and_other_digits_name_the_same_work(spelling: str, key: str) -> None:
    assert key in work_keys(spelling).keys


@settings(max_examples=200, deadline=None)
@given(
    st.from_regex(r"[0-9]{4}\.[0-9]{4,5}", fullmatch=True),
    st.sampled_from(sorted(ZEROS.values())),
    st.sampled_from(["{}", "arXiv:{}", "https://arxiv.org/abs/{}", "https://arxiv.org/pdf/{}v3"]),
)
def test_an_arxiv_id_in_any_digits_has_the_ascii_keys(paper: str, zero: int, form: str) -> None:
    assert work_keys(form.format(in_digits(paper, zero))).keys == work_keys(form.format(paper)).keys


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=60))
def test_identity_keys_are_the_keys_of_the_nfkc_form(text: str) -> None:
    try:
        keys = work_keys(text)
    except InvalidURL:
        return
    assert keys.keys == work_keys(unicodedata.normalize("NFKC", text)).keys


INVISIBLE = [
    "\u202e",  # right-to-left override
    "\u202d",  # left-to-right override
    "\u2066",  # left-to-right isolate
    "\u200b",  # zero-width space
    "\u200f",  # right-to-left mark
    "\ufeff",  # zero-width no-break space
    "\x07",
    "\x1b",
]


@pytest.mark.parametrize("character", INVISIBLE)
def test_control_and_bidi_characters_are_refused_clearly(character: str) -> None:
    with pytest.raises(InvalidURL) as refused:
        work_keys(f"10.1145/3600006{character}.3613165")
    message = str(refused.value)
    assert "invisible" in message and unicodedata.name(character, "") in message
    with pytest.raises(InvalidURL):
        canonical_url(f"https://example.org/{character}post")


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(["10.1145/3600006.3613165", "https://example.org/post", "2403.02310"]),
    st.characters(categories=["Cc", "Cf"]),
    st.integers(min_value=1, max_value=8),
)
def test_no_invisible_character_inside_an_identifier_is_accepted(
    text: str, character: str, at: int
) -> None:
    with pytest.raises(InvalidURL):
        work_keys(text[:at] + character + text[at:])


def test_an_over_long_input_is_refused_at_once_with_its_length() -> None:
    for size in (100_000, 10_000_000):
        huge = "https://example.org/" + "a" * size
        started = time.perf_counter()
        with pytest.raises(InvalidURL) as refused:
            work_keys(huge)
        assert time.perf_counter() - started < 0.005
        assert f"{len(huge):,} characters" in str(refused.value)
        assert f"at most {MAX_IDENTITY_CHARS:,}" in str(refused.value)
    with pytest.raises(InvalidURL, match="characters"):
        canonical_url("https://example.org/" + "a" * 100_000)
    with pytest.raises(InvalidURL, match="characters"):
        work_keys("10.1145/" + "1" * 100_000)


@settings(max_examples=50, deadline=None)
@given(st.text(min_size=MAX_IDENTITY_CHARS + 1, max_size=MAX_IDENTITY_CHARS + 50))
def test_any_input_over_the_limit_is_refused(text: str) -> None:
    with pytest.raises(InvalidURL):
        work_keys(text)


LOOKALIKES = [
    "https://\u0430rxiv.org/abs/2403.02310",  # a Cyrillic a
    "https://github.com/vllm-project/vllm".replace("o", "\u03bf"),  # Greek omicrons
    "https://\u0430\u0440\u0440\u04cf\u0435.com/",  # all Cyrillic, under a Latin TLD
]


@pytest.mark.parametrize("address", LOOKALIKES)
def test_a_lookalike_host_is_another_host_and_is_flagged(address: str) -> None:
    keys = work_keys(address)

    assert "arxiv:2403.02310" not in keys.keys
    assert "repository:vllm-project/vllm" not in keys.keys
    assert keys.url.split("/")[2].isascii() and "xn--" in keys.url
    assert "look-alike characters" in keys.lookalike


@pytest.mark.parametrize(
    "address",
    [
        "https://arxiv.org/abs/2403.02310",
        "https://\u4f8b\u3048.jp/\u8a18\u4e8b",
        "https://\u043f\u0440\u0438\u043c\u0435\u0440.\u0440\u0444/",
        "2403.02310",
    ],
)
def test_plain_and_single_script_hosts_are_not_flagged(address: str) -> None:
    assert work_keys(address).lookalike == ""


def test_a_unicode_host_is_stored_in_its_ascii_form() -> None:
    assert canonical_url("https://B\u00fccher.example/x") == "https://xn--bcher-kva.example/x"
    assert (
        work_keys("https://b\u00fccher.example/x").keys
        == work_keys("https://xn--bcher-kva.example/x").keys
    )


def test_the_catalog_file_checks_read_identifiers_the_same_way() -> None:
    from catalog.identity import InvalidIdentifier, check_arxiv, check_doi, check_isbn

    assert check_arxiv(full_width("1706.03762")) == "1706.03762"
    assert check_doi(in_digits("10.1145/3600006.3613165", 0x0660)) == "10.1145/3600006.3613165"
    assert check_isbn(full_width("9780306406157")) == "9780306406157"
    with pytest.raises(InvalidIdentifier, match="invisible"):
        check_doi("10.1145/3600006\u202e.3613165")
