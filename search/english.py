"""Words of everyday English, which the typo correction must not turn into other words.

A reader who types "newer" means newer, whether or not the catalog ever uses the word: reading
it as "fewer" (one letter away, and in the catalog) changes the question. The words come from
the word list and frequencies of the pyspellchecker package (counts from a large corpus of
subtitles; American spellings): only words of four letters or more seen at least COMMON_ENOUGH
times count, since rarer entries include names and slips, and a three-letter word is corrected
only for a likely slip anyway (corrections.closest()).

The chosen words ship in data/english_words.txt, one a line, sorted: reading it costs a worker a
few milliseconds where parsing the package's whole frequency list cost a quarter of a second of
CPU, on the first query with a word the catalog lacks. tests/search/test_english_words.py holds
the file equal to the installed package's words and writes it again with WRITE_ENGLISH_WORDS=1.
"""

import functools
import gzip
import importlib.resources
import json
from pathlib import Path

# Occurrences in the package's corpus from which a word counts as everyday English: keeps
# "newer" (2,045), "pagers" (272), "pruning" (738); leaves out names and jargon seen rarely
# ("hooper", "batching": 50, the list's floor).
COMMON_ENOUGH = 100
SHORTEST = 4
WORD_LIST = Path(__file__).resolve().parent / "data" / "english_words.txt"


@functools.cache
def english_words() -> frozenset[str]:
    """The everyday words (about 46,000), read once per process from the shipped list."""
    return frozenset(WORD_LIST.read_text(encoding="utf-8").split())


def words_from_package() -> list[str]:
    """The everyday words as the installed pyspellchecker counts them, sorted: what the
    shipped list holds."""
    resource = importlib.resources.files("spellchecker") / "resources" / "en.json.gz"
    with resource.open("rb") as file, gzip.open(file) as text:
        counts: dict[str, int] = json.load(text)
    return sorted(
        word for word, count in counts.items() if count >= COMMON_ENOUGH and len(word) >= SHORTEST
    )


def is_english(word: str) -> bool:
    """Whether `word` (lower case) is an everyday English word."""
    return len(word) >= SHORTEST and word in english_words()
