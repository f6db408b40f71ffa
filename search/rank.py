"""The third stage of a search, rank: the matches in the page's order.

`rank()` is the stage's one entry: best match first when searching (names first, then the
all-words matches by text rank and prior, or every match by the fused rank when the any-word
match is ranked: described.py), the lists' own order when browsing, or the order the reader
chose. PostgreSQL ranks in SQL (`postgres_rank.py`), other databases partly in Python
(`sqlite_rank.py`).
"""

from . import postgres_rank, sqlite_rank
from .postgres_match import PostgresMatched
from .shared import Matched, Ranked
from .sqlite_match import ContainsMatched


def rank(matched: Matched, sort: str) -> Ranked:
    """The stage's one entry: `matched` in the order `sort` names."""
    if isinstance(matched, PostgresMatched):
        return postgres_rank.ranked(matched, sort)
    if isinstance(matched, ContainsMatched):
        return sqlite_rank.ranked(matched, sort)
    raise TypeError(f"no rank for {type(matched).__name__}")
