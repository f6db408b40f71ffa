"""Everyday English words, which typo correction leaves as typed (search/english.py)."""

import pytest

from search.corrections import ALL_KNOWN, Vocabulary, read_word
from search.english import is_english


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
