"""The names a work goes by besides its URL: an arXiv id in any spelling, a DOI, a repository."""

import re
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

from catalog.urlcanon import InvalidURL, arxiv_id, canonical_url

_ARXIV_BARE = re.compile(
    r"^(?:arxiv:\s*)?(?P<id>\d{4}\.\d{4,5}|[a-z\-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?$", re.I
)
_DOI = re.compile(r"(?P<doi>10\.\d{4,9}/[^\s?#]+)", re.I)
_DOI_PREFIX = re.compile(r"^(?:doi:\s*|https?://(?:dx\.)?doi\.org/)", re.I)
_GITHUB = re.compile(
    r"^https://(?:www\.)?github\.com/(?P<owner>[\w.-]+)/(?P<name>[\w.-]+?)(?:\.git)?$"
)
_REPOSITORY_HOSTS = ("github.com", "gitlab.com", "codeberg.org", "bitbucket.org")


@dataclass(frozen=True)
class Identifier:
    kind: str  # "arxiv", "doi", "github" or "web"
    value: str
    url: str


def normalise_arxiv(raw: str) -> str:
    """The arXiv id in an id or URL of any form (abs, pdf, html, vN, "arXiv:"), or ""."""
    text = (raw or "").strip()
    match = _ARXIV_BARE.match(text)
    if match:
        return match["id"]
    try:
        return arxiv_id(canonical_url(text))
    except InvalidURL:
        return ""


def normalise_doi(raw: str) -> str:
    """The DOI in a bare DOI, a doi: name or any URL that carries one, lower-cased, or ""."""
    text = unquote((raw or "").strip())
    match = _DOI.search(_DOI_PREFIX.sub("", text))
    if not match:
        return ""
    return match["doi"].rstrip(".").rstrip("/").lower()


def is_repository_url(url: str) -> bool:
    host = (urlsplit(url).hostname or "").lower().removeprefix("www.")
    return host in _REPOSITORY_HOSTS


def identify(raw: str) -> Identifier | None:
    """What a reader pasted: an arXiv id or URL, a DOI, a GitHub repository or a web page."""
    text = (raw or "").strip()
    if not text:
        return None
    if paper := normalise_arxiv(text):
        return Identifier("arxiv", paper, f"https://arxiv.org/abs/{paper}")
    looks_like_doi = _DOI_PREFIX.match(text) or text.lower().startswith("10.")
    if looks_like_doi and (doi := normalise_doi(text)):
        return Identifier("doi", doi, f"https://doi.org/{doi}")
    try:
        url = canonical_url(text)
    except InvalidURL:
        return None
    if match := _GITHUB.match(url):
        repo = f"{match['owner']}/{match['name']}"
        return Identifier("github", repo, f"https://github.com/{repo}")
    return Identifier("web", url, url)
