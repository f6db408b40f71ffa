"""Which metadata service describes what a reader pasted: arXiv, Crossref (a DOI), GitHub or
the page itself. The names themselves come from catalog.identity, the one place a URL or
identifier is turned into a work's keys."""

from dataclasses import dataclass

from catalog.identity import normalise_arxiv, normalise_doi, work_keys
from catalog.urlcanon import InvalidURL

__all__ = ["Identifier", "identify", "normalise_arxiv", "normalise_doi"]


@dataclass(frozen=True)
class Identifier:
    kind: str  # "arxiv", "doi", "github" or "web"
    value: str
    url: str


def identify(raw: str) -> Identifier | None:
    """What a reader pasted: an arXiv id or URL, a DOI, a GitHub repository or a web page."""
    try:
        keys = work_keys(raw)
    except InvalidURL:
        return None
    if keys.arxiv:
        return Identifier("arxiv", keys.arxiv, f"https://arxiv.org/abs/{keys.arxiv}")
    if keys.doi and keys.url.startswith("https://doi.org/"):
        return Identifier("doi", keys.doi, keys.url)
    if keys.repository and keys.is_repository_root:
        return Identifier("github", keys.repository, f"https://github.com/{keys.repository}")
    if keys.url:
        return Identifier("web", keys.url, keys.url)
    return None
