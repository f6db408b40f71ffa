"""One fetcher per kind of identifier; each returns the metadata as a plain dict."""

import json
import re
from urllib.parse import quote, urlencode
from xml.etree import ElementTree

from django.conf import settings

from ..identifiers import Identifier
from .htmlmeta import page_metadata
from .http import FetchFailed, NotFound, get

ATOM = "{http://www.w3.org/2005/Atom}"
ARXIV = "{http://arxiv.org/schemas/atom}"
TITLE_MAX, AUTHORS_MAX, ABSTRACT_MAX = 300, 300, 5000
_TAGS = re.compile(r"<[^>]+>")
_CROSSREF_KINDS = {
    "journal-article": "paper",
    "proceedings-article": "paper",
    "posted-content": "paper",
    "book": "book",
    "monograph": "book",
    "report": "whitepaper",
    "standard": "specification",
}


def clip(text: str | None, limit: int) -> str:
    cleaned = " ".join((text or "").split())
    return cleaned if len(cleaned) <= limit else cleaned[: limit - 1].rstrip() + "…"


def authors_text(names: list[str]) -> str:
    names = [name for name in (" ".join(n.split()) for n in names) if name]
    if len(names) > 3:
        return f"{names[0]} et al."
    return clip(", ".join(names), AUTHORS_MAX)


def _year(text: str | None) -> int | None:
    match = re.search(r"\b(1[89]\d\d|20\d\d|2100)\b", text or "")
    return int(match[1]) if match else None


def from_arxiv(identifier: Identifier) -> dict:
    query = urlencode({"id_list": identifier.value, "max_results": 1})
    fetched = get(f"{settings.ARXIV_API_URL}?{query}", accept="application/atom+xml")
    try:
        root = ElementTree.fromstring(fetched.text)
    except ElementTree.ParseError as exc:
        raise FetchFailed("arXiv sent an answer that could not be read.") from exc
    entry = root.find(f"{ATOM}entry")
    entry_id = entry.findtext(f"{ATOM}id", "") if entry is not None else ""
    if entry is None or "api/errors" in entry_id or not entry.findtext(f"{ATOM}title"):
        raise NotFound(f"arXiv has no paper with the id {identifier.value}.")
    names = [a.findtext(f"{ATOM}name", "") for a in entry.findall(f"{ATOM}author")]
    return {
        "source": "arXiv",
        "title": clip(entry.findtext(f"{ATOM}title"), TITLE_MAX),
        "authors": authors_text(names),
        "year": _year(entry.findtext(f"{ATOM}published")),
        "venue": clip(entry.findtext(f"{ARXIV}journal_ref") or "arXiv", AUTHORS_MAX),
        "abstract": clip(entry.findtext(f"{ATOM}summary"), ABSTRACT_MAX),
        "kind": "paper",
    }


def from_crossref(identifier: Identifier) -> dict:
    try:
        fetched = get(
            f"{settings.CROSSREF_API_URL}/{quote(identifier.value, safe='/')}",
            accept="application/json",
        )
    except NotFound as exc:
        raise NotFound(f"Crossref knows no work with the DOI {identifier.value}.") from exc
    try:
        work = json.loads(fetched.text)["message"]
    except (ValueError, KeyError, TypeError) as exc:
        raise FetchFailed("Crossref sent an answer that could not be read.") from exc
    names = [
        " ".join(part for part in (a.get("given"), a.get("family")) if part) or a.get("name", "")
        for a in work.get("author") or []
        if isinstance(a, dict)
    ]
    issued = (work.get("issued") or {}).get("date-parts") or [[None]]
    return {
        "source": "Crossref",
        "title": clip((work.get("title") or [""])[0], TITLE_MAX),
        "authors": authors_text(names),
        "year": issued[0][0] if issued and issued[0] and isinstance(issued[0][0], int) else None,
        "venue": clip((work.get("container-title") or [work.get("publisher", "")])[0], 300),
        "abstract": clip(_TAGS.sub(" ", work.get("abstract") or ""), ABSTRACT_MAX),
        "kind": _CROSSREF_KINDS.get(work.get("type", ""), "article"),
        "doi": identifier.value,
    }


def from_github(identifier: Identifier) -> dict:
    try:
        fetched = get(
            f"{settings.GITHUB_API_URL}/repos/{identifier.value}",
            accept="application/vnd.github+json",
        )
    except NotFound as exc:
        raise NotFound(f"GitHub has no public repository {identifier.value}.") from exc
    try:
        repo = json.loads(fetched.text)
        full_name = repo["full_name"]
    except (ValueError, KeyError, TypeError) as exc:
        raise FetchFailed("GitHub sent an answer that could not be read.") from exc
    return {
        "source": "GitHub",
        "title": clip(repo.get("name") or full_name, TITLE_MAX),
        "authors": clip((repo.get("owner") or {}).get("login", ""), AUTHORS_MAX),
        "year": _year(repo.get("created_at")),
        "venue": "GitHub",
        "abstract": clip(repo.get("description"), ABSTRACT_MAX),
        "kind": "repository",
        "homepage": clip(repo.get("homepage"), 2000),
    }


def from_web_page(identifier: Identifier) -> dict:
    fetched = get(identifier.url, accept="text/html,application/xhtml+xml")
    if "html" not in fetched.content_type.lower():
        raise FetchFailed("The address is not a web page, so it has no metadata to read.")
    found = page_metadata(fetched.text)
    if not found.get("title"):
        raise FetchFailed("The page states no title.")
    return {
        "source": "the page's metadata",
        "title": clip(found["title"], TITLE_MAX),
        "authors": authors_text(found.get("authors", [])),
        "year": _year(found.get("date")),
        "venue": clip(found.get("venue"), 300),
        "abstract": clip(found.get("description"), ABSTRACT_MAX),
        "kind": "paper" if found.get("is_paper") else "article",
        "doi": found.get("doi", ""),
    }


FETCHERS = {
    "arxiv": from_arxiv,
    "doi": from_crossref,
    "github": from_github,
    "web": from_web_page,
}
