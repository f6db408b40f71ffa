"""The identity keys of every work the site already knows: catalogued, proposed or collected.

A found work whose keys meet any of these is not a new candidate. Keys come from the one
identity function (catalog.identity), so a URL with tracking parameters, a `www.` host, a PDF
link or a DOI variant meets the same work; titles are compared folded (case, punctuation and
spacing ignored).
"""

import re
import unicodedata
from collections.abc import Iterable

from catalog.identity import work_keys_or_empty
from catalog.models import Source
from proposals.models import Proposal

from .entries import Entry
from .models import Candidate

_NOT_WORD = re.compile(r"[\W_]+")


def title_key(title: str) -> str:
    folded = unicodedata.normalize("NFKD", title).casefold()
    words = _NOT_WORD.sub(" ", folded).split()
    return "title:" + " ".join(words) if len(words) >= 2 else ""


def keys_of(url: str, *, title: str = "", arxiv: str = "", doi: str = "") -> list[str]:
    """Every key of one work, strongest first."""
    found: list[str] = []
    for text in (f"arXiv:{arxiv}" if arxiv else "", doi, url):
        if text:
            found += [key for key in work_keys_or_empty(text).keys if key not in found]
    if key := title_key(title):
        found.append(key)
    return found


def entry_keys(entry: Entry) -> list[str]:
    return keys_of(entry.url, title=entry.title, arxiv=entry.arxiv, doi=entry.doi)


def _source_keys() -> Iterable[str]:
    fields = ("url", "title", "full_title", "arxiv_id", "doi", "isbn", "repository")
    for url, title, full_title, arxiv, doi, isbn, repository in Source.objects.values_list(*fields):
        yield from keys_of(url, title=title, arxiv=arxiv, doi=doi)
        yield from filter(None, [title_key(full_title), f"isbn:{isbn}" if isbn else ""])
        if repository:
            yield f"repository:{repository.lower()}"


def _proposal_keys() -> Iterable[str]:
    for url, title in Proposal.objects.values_list("url", "title"):
        yield from keys_of(url, title=title)


def known_keys() -> set[str]:
    """The keys of every source, proposal and candidate, in three queries."""
    known = set(_source_keys()) | set(_proposal_keys())
    for keys in Candidate.objects.values_list("keys", flat=True):
        known.update(keys)
    return known
