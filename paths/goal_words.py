"""The words of a learning goal that say what it is about, stemmed as the catalog's text is
matched against them (paths/drafting.py)."""

import re
import threading
from functools import lru_cache

import snowballstemmer

WORD = re.compile(r"[a-z0-9]+")
# Words that say how a goal is put rather than what it is about ("get our team ready to …",
# "build a …", "write my first …"); the catalog's text is matched against the rest.
STOP_WORDS = frozenset(
    WORD.findall(
        """a about after all an and any are as at be before being between both build building but
    by can could create design different differ do does doing done each for from get getting go
    going good got has have how i implement improve in into is it its just know learn learning
    let like make many more most much my need new of on one onto or our out over own read
    reading ready really run running set setup several should so some start started such team
    teams than that the their them then there these they this those through to too understand
    up us use using very want way ways we week weekly well what when where which while who why
    will with work would write writing you your"""
    )
)
_stemmers = threading.local()


@lru_cache(maxsize=20_000)
def stemmed(word: str) -> str:
    # One stemmer per thread: a Snowball stemmer shared by threads corrupts the word it holds.
    stemmer = getattr(_stemmers, "english", None)
    if stemmer is None:
        stemmer = _stemmers.english = snowballstemmer.stemmer("english")
    return str(stemmer.stemWord(word))


def goal_terms(goal: str) -> dict[str, str]:
    """{stem: the word as the goal has it} for the words that say what the goal is about."""
    terms: dict[str, str] = {}
    for word in WORD.findall(goal.lower()):
        if word not in STOP_WORDS and len(word) > 1:
            terms.setdefault(stemmed(word), word)
    return terms
