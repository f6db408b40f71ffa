"""Words of everyday English, which the typo correction must not turn into other words.

A reader who types "newer" means newer, whether or not the catalog ever uses the word: reading
it as "fewer" (one letter away, and in the catalog) changes the question. The word list and its
frequencies ship inside the pyspellchecker package (counts from a large corpus of subtitles;
American spellings), so nothing is fetched at run time. Only words of four letters or more seen
at least COMMON_ENOUGH times count: rarer entries include names and slips, and a three-letter
word is corrected only for a likely slip anyway (corrections.closest()).
"""

import functools
import gzip
import importlib.resources
import json

# Occurrences in the package's corpus from which a word counts as everyday English: keeps
# "newer" (2,045), "pagers" (272), "pruning" (738); leaves out names and jargon seen rarely
# ("hooper", "batching": 50, the list's floor).
COMMON_ENOUGH = 100
SHORTEST = 4


@functools.cache
def english_words() -> frozenset[str]:
    """The everyday words, read once per process (about 46,000, in a fraction of a second),
    and only when a query has a word the catalog never uses."""
    resource = importlib.resources.files("spellchecker") / "resources" / "en.json.gz"
    with resource.open("rb") as file, gzip.open(file) as text:
        counts: dict[str, int] = json.load(text)
    return frozenset(
        word for word, count in counts.items() if count >= COMMON_ENOUGH and len(word) >= SHORTEST
    )


def is_english(word: str) -> bool:
    """Whether `word` (lower case) is an everyday English word."""
    return len(word) >= SHORTEST and word in english_words()
