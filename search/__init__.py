"""Search and browse for sources: one interface, a backend per database vendor.

`search.page.search_sources(params)` is all a view needs (`matching_sources()` gives the same
sources unpaged), with `search.forms.SearchForm` to read the parameters. It filters the published
catalog, matches the query through the backend for the connection's vendor, counts facets in one
statement, orders, paginates and adds snippets. PostgreSQL gets full-text search over a weighted
document declared in `document.py` (`postgres.py`); other databases get "every word required,
title matches first" (`sqlite.py`). The rest: `parsing.py` (what the reader asked for),
`corrections.py` (typos, on PostgreSQL), `names.py` (navigational queries), `facets.py` and
`set_keys.py`, `snippets.py`, `triggers.py` (the SQL that keeps PostgreSQL's entries current).

This package imports nothing at load time: Django imports it before any model exists.
"""
