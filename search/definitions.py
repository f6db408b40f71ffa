"""Definition questions: "what is a tensor core" wants the source that defines the term first.

As a bare term, "tensor core" ranks the sources that name or mention it, and a question that
asks what it *is* used to rank exactly the same. The source that defines a term says so in its
reader's words: a keyword that asks the same question or names the term's definition ("what is
a warp", "tensor core definition", "occupancy explained"). `with_definitions()`, part of the
match stage, gives such sources among the matches a level below every named source's
(`DEFINES_LEVEL`), so a source the query names still comes first and the defining one next.
"""

import itertools
import re
from dataclasses import replace

from catalog.models import Source

from .described import STOP_WORDS, stem
from .models import SearchEntry
from .shared import Matched

# Below any name's level (names.py: 1 and more), above every unnamed match: the rank adds
# level times NAMED_BONUS.
DEFINES_LEVEL = 0.5
# How many defining sources are read: a glossary or two, never a common word's thousands.
MAX_DEFINING = 5


def word_pattern(word: str) -> str:
    """A word and its other forms: the part it shares with its stem, then any letters ("core"
    finds "cores", "batching" finds "batch"); a stop word exactly."""
    if word in STOP_WORDS:
        return re.escape(word)
    pairs = zip(word, stem(word), strict=False)
    shared = "".join(a for a, _ in itertools.takewhile(lambda pair: pair[0] == pair[1], pairs))
    return re.escape(shared or word) + r"\w*"


def definition_pattern(term: tuple[str, ...]) -> str:
    """A regular expression (Python's and PostgreSQL's alike) for a keyword, between the
    list's `;` separators, that asks what `term` is or names its definition."""
    words = r"\s+".join(word_pattern(word) for word in term)
    article = r"(?:(?:an?|the)\s+)?"
    asked = (
        rf"what\s+(?:is|are)\s+{article}{words}",
        rf"(?:define|explain)\s+{article}{words}",
        rf"{words}\s+(?:definition|meaning|explained|defined)",
    )
    return rf"(?:^|;)\s*(?:{'|'.join(asked)})\s*(?:;|$)"


def with_definitions(matched: Matched, using: str) -> Matched:
    """`matched` with the sources that define the term a definition question asks about
    among its named sources, at DEFINES_LEVEL; unchanged for any other query (no statement)."""
    term = matched.query.defines
    if not term or not matched:
        return matched
    column = "source_id" if matched.rows.model is SearchEntry else "pk"
    defining = (
        Source.objects.using(using)
        .filter(pk__in=matched.rows.values(column), keywords__iregex=definition_pattern(term))
        .order_by("pk")
        .values_list("pk", flat=True)[:MAX_DEFINING]
    )
    named = dict(matched.named)
    for pk in defining:
        named.setdefault(pk, DEFINES_LEVEL)
    return replace(matched, named=tuple(named.items()))
