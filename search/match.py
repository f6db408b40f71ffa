"""The second stage of a search, match: the parsed query read against the catalog.

`match()` is the stage's one entry. It asks the database what the query's words need to know
before they are searched (the sources the query names, typo corrections, how many sources have
the words, how rare each word is, and the sources closest in meaning when the all-words match
is thin) and returns a `Matched`: the query as searched and the rows it matches, narrowed by
the page's filters, in no order yet. PostgreSQL does this over the search entries
(`postgres_match.py`), other databases over the sources (`sqlite_match.py`).
"""

from django.db import connections

from catalog.models import Source

from . import postgres_match, sqlite_match
from .definitions import with_definitions
from .parsing import ParsedQuery, SearchParams
from .shared import Matched


def identified_sources(query: ParsedQuery, using: str) -> tuple[int, ...]:
    """The published sources an identifier query names (an arXiv id, a DOI…), best first; no
    query at all for ordinary words."""
    if query.identifier is None:
        return ()
    found = Source.objects.using(using).published().identified_by(query.identifier)
    return tuple(source.pk for source, _ in found)


def match(params: SearchParams, using: str = "default") -> Matched:
    """The stage's one entry: the query read against the catalog in `using`."""
    identified = identified_sources(params.query, using)
    matched: Matched
    if connections[using].vendor == "postgresql":
        matched = postgres_match.matched(params, identified, using)
    else:
        matched = sqlite_match.matched(params, identified, using)
    return with_definitions(matched, using)
