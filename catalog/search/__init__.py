"""Search and browse for sources: one interface, a backend per database vendor.

`search_sources(params)` is all a view needs. It filters the published catalog, matches the
query through the backend for the connection's vendor, counts facets in one statement, orders,
paginates and adds snippets. PostgreSQL gets full-text search over a weighted document declared
in `document.py` (`postgres.py`); other databases get "every word required, title matches first"
(`sqlite.py`). The rest: `parsing.py` (what the reader asked for), `corrections.py` (typos, on
PostgreSQL), `names.py` (navigational queries), `facets.py` and `set_keys.py`, `snippets.py`,
`triggers.py` (the SQL that keeps PostgreSQL's entries current) and `page.py` (the page).
"""

from .backend import Suggestion
from .document import SEARCH_DOCUMENT
from .facets import FacetItem, Facets, YearChart, query_string
from .page import Chip, SearchPage, backend_for, matching_sources, search_sources
from .parsing import (
    MAX_QUERY_LENGTH,
    SORTS,
    ParsedQuery,
    SearchParams,
    clean_query_text,
    parse_query,
)
from .postgres import PostgresBackend
from .snippets import START_SEL, STOP_SEL, marked_snippet, plain_snippet, words_pattern
from .sqlite import ContainsBackend

__all__ = [
    "MAX_QUERY_LENGTH",
    "SEARCH_DOCUMENT",
    "SORTS",
    "START_SEL",
    "STOP_SEL",
    "Chip",
    "ContainsBackend",
    "FacetItem",
    "Facets",
    "ParsedQuery",
    "PostgresBackend",
    "SearchPage",
    "SearchParams",
    "Suggestion",
    "YearChart",
    "backend_for",
    "clean_query_text",
    "marked_snippet",
    "matching_sources",
    "parse_query",
    "plain_snippet",
    "query_string",
    "search_sources",
    "words_pattern",
]
