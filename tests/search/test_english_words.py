"""Everyday English words, which typo correction leaves as typed (search/english.py)."""

import os

import pytest

from search.corrections import ALL_KNOWN, Vocabulary, read_word
from search.english import WORD_LIST, is_english, words_from_package


@pytest.mark.parametrize("word", ["newer", "tower", "louder", "pager", "bolder", "waiter"])
def test_everyday_words_are_english(word: str) -> None:
    assert is_english(word)


@pytest.mark.parametrize(
    "word", ["transfromer", "medusaa", "rooflin", "cahce", "sglnag", "deepsek", "ned", "gpus"]
)
def test_typos_names_and_short_words_are_not(word: str) -> None:
    assert not is_english(word)


def test_an_english_word_is_read_as_typed_and_a_typo_is_corrected() -> None:
    vocabulary = Vocabulary(known=frozenset({"fewer", "never"}), near={"newer": ("fewer", "never")})
    assert read_word("newer", vocabulary).corrected == "newer"
    vocabulary = Vocabulary(known=frozenset({"tensor"}), near={"tenor": ("tensor",)})
    assert read_word("tenor", vocabulary).shown == "tensor"  # a letter left out
    vocabulary = Vocabulary(known=frozenset({"medusa"}), near={"medusaa": ("medusa",)})
    assert read_word("medusaa", vocabulary).shown == "medusa"
    assert read_word("newer", ALL_KNOWN).corrected == "newer"


def test_the_shipped_list_is_the_packages_everyday_words() -> None:
    # The list ships so a worker reads it in milliseconds; the package stays its source.
    expected = "\n".join(words_from_package()) + "\n"
    if os.environ.get("WRITE_ENGLISH_WORDS"):
        WORD_LIST.write_text(expected, encoding="utf-8")
    assert WORD_LIST.read_text(encoding="utf-8") == expected, (
        "search/data/english_words.txt is out of date: "
        "WRITE_ENGLISH_WORDS=1 pytest tests/search/test_english_words.py writes it again"
    )
