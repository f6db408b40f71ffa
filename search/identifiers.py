"""A search for an identifier finds its source first: "2403.02310", "arXiv:2403.02310v2", a DOI,
a DOI or arXiv URL, an ISBN or a repository's address (catalog.identity).

Ordinary words are not identifiers, so only a query that is one costs the extra query.
"""

from catalog.identity import work_keys
from catalog.models import Source
from catalog.urlcanon import InvalidURL


def identified_source_ids(text: str, using: str = "default") -> list[int]:
    """The published sources the query names by an identifier, best match first."""
    text = (text or "").strip()
    if not text or len(text) > 2000 or " " in text.removeprefix("arXiv: "):
        return []
    try:
        keys = work_keys(text)
    except InvalidURL:
        return []  # words, not an identifier
    if not keys:
        return []
    found = Source.objects.using(using).published().identified_by(keys)
    return [source.pk for source, _ in found]


def first_on_page(identified: list[int], ids: list[int]) -> list[int]:
    """The page's sources with the identified ones first, each once."""
    return identified + [pk for pk in ids if pk not in identified]
