"""Which work a URL or identifier names: one function, `work_keys`, for every place a work
arrives (the save page, the proposal form and its live check, imports, the admin's accept, the
catalog loader and search).

A work is known by its canonical URL (without `www.`), its arXiv id, its DOI, its ISBN, its
GitHub repository and its OpenReview id. Two strings name the same work when they share a key.
The syntax checks the loader applies to the catalog file's identifiers live here too.

Input is normalised and bounded before it is matched (catalog.urlcanon.prepared): too long,
invisible control or bidirectional characters are refused with a reason; compatibility forms
fold to ASCII (NFKC), and so do any script's digits in an arXiv id, DOI or ISBN. A host that
mixes Latin letters with look-alikes from another script stays a different host, and its keys
say so (`WorkKeys.lookalike`) for the page to warn the person.
"""

import re
import unicodedata
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from .urlcanon import MAX_INPUT_CHARS, InvalidURL, arxiv_id, ascii_digits, canonical_url, prepared

MAX_IDENTITY_CHARS = MAX_INPUT_CHARS
# Scripts with letters that pass for Latin ones (Cyrillic a, Greek omicron, Cyrillic palochka):
# mixed with Latin in one host, they make an address that looks like another site's.
_LOOKALIKE_SCRIPTS = {"CYRILLIC", "GREEK", "ARMENIAN", "CHEROKEE", "COPTIC"}

ARXIV_NEW = r"\d{4}\.\d{4,5}"
ARXIV_OLD = r"[a-z][a-z\-]*(?:\.[A-Z]{2})?/\d{7}"
ARXIV_ID = re.compile(rf"^(?:{ARXIV_NEW}|{ARXIV_OLD})$")
DOI = re.compile(r"^10\.\d{4,9}/\S+$")
REPOSITORY = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})/[A-Za-z0-9._-]{1,100}$")
_ARXIV_TEXT = re.compile(rf"^(?:(?i:arxiv):\s*)?(?P<id>{ARXIV_NEW}|{ARXIV_OLD})(?:v\d+)?$")
# An id cited in prose: "arXiv:2009.03300", "arXiv preprint arXiv:2009.03300" (Google Scholar's
# journal field), "arXiv 2009.03300".
_ARXIV_IN_PROSE = re.compile(
    rf"\barxiv(?:\s*preprint)?(?:\s*arxiv)?\s*[:\s]\s*(?P<id>{ARXIV_NEW}|{ARXIV_OLD})(?:v\d+)?\b",
    re.I,
)
_PROSE_CHARS = 500
_ARXIV_DOI = re.compile(rf"^10\.48550/arxiv\.(?P<id>{ARXIV_NEW})$", re.I)
_DOI_IN_TEXT = re.compile(r"(?P<doi>10\.\d{4,9}/[^\s?#]+)")
_DOI_PREFIX = re.compile(r"^(?:doi:\s*|https?://(?:dx\.)?doi\.org/)", re.I)
_DOI_HOSTS = {"doi.org", "dx.doi.org"}
_ISBN_TEXT = re.compile(r"^(?:isbn(?:-1[03])?:?\s*)?(?P<isbn>[0-9][0-9\- ]{8,16}[0-9Xx])$", re.I)
_GITHUB_PATH = re.compile(r"^/(?P<owner>[A-Za-z0-9-]+)/(?P<name>[A-Za-z0-9._-]+?)(?:\.git)?(?:/|$)")
# Paths under github.com that are GitHub's own pages, not an owner's repository.
_GITHUB_RESERVED = {"orgs", "topics", "features", "settings", "marketplace", "sponsors", "about"}
_PAGES = ("forum", "pdf")
_OPENREVIEW_PATHS = {f"/{page}" for page in _PAGES}


class InvalidIdentifier(ValueError):
    pass


@dataclass(frozen=True)
class WorkKeys:
    """Every name of one work that a string revealed; empty strings where it revealed none."""

    url: str = ""  # the canonical URL, as stored (keeps `www.` and the scheme)
    canonical_url: str = ""  # the URL as compared: https, without `www.`
    arxiv: str = ""
    doi: str = ""
    isbn: str = ""
    repository: str = ""  # GitHub owner/name
    is_repository_root: bool = False  # the URL is the repository's own page
    openreview: str = ""
    # Why the host looks like another site's (Latin letters mixed with look-alikes), or "".
    lookalike: str = ""

    @property
    def keys(self) -> tuple[str, ...]:
        """The work's keys as strings, most specific first: "arxiv:2403.02310", "doi:10.…"."""
        found = [
            ("arxiv", self.arxiv),
            ("doi", self.doi),
            ("isbn", self.isbn),
            ("openreview", self.openreview),
            ("repository", self.repository.lower()),
            ("url", self.canonical_url),
        ]
        return tuple(f"{kind}:{value}" for kind, value in found if value)

    @property
    def url_variants(self) -> list[str]:
        """The stored spellings this URL may have: with and without `www.`."""
        if not self.url:
            return []
        plain = self.canonical_url.removeprefix("https://")
        variants = {self.url} | {
            f"{scheme}://{www}{plain}" for scheme in ("https", "http") for www in ("", "www.")
        }
        if self.openreview:
            variants |= {f"https://openreview.net/{page}?id={self.openreview}" for page in _PAGES}
        return sorted(variants)

    def __bool__(self) -> bool:
        return bool(self.keys)


def _compared(url: str) -> str:
    """A page is the same over http and https, with and without `www.`."""
    _, _, rest = url.partition("://")
    return f"https://{rest.removeprefix('www.')}"


def _plain(text: str) -> str:
    """Prepared input with ASCII digits, or "" for input that `prepared` refuses."""
    try:
        return ascii_digits(prepared(text))
    except InvalidURL:
        return ""


def normalise_arxiv(text: str) -> str:
    """The arXiv id in an id or URL of any form (abs, pdf, html, vN, "arXiv:"), or ""."""
    text = _plain(text)
    if match := _ARXIV_TEXT.match(text):
        return match["id"]
    try:
        return arxiv_id(canonical_url(text))
    except InvalidURL:
        return ""


def arxiv_in_prose(*texts: object) -> str:
    """The first arXiv id cited in free text, such as a reference's journal or note, or "".
    Only the start of each text is read (a citation is short; an imported field may not be),
    and what is not text is passed over."""
    for text in texts:
        if not isinstance(text, str):
            continue
        start = ascii_digits(unicodedata.normalize("NFKC", text[:_PROSE_CHARS]))
        if match := _ARXIV_IN_PROSE.search(start):
            return match["id"]
    return ""


def normalise_doi(text: str) -> str:
    """The DOI in a bare DOI, a doi: name or any URL that carries one, lower-cased, or ""."""
    text = _plain(unquote(_plain(text)))
    match = _DOI_IN_TEXT.search(_DOI_PREFIX.sub("", text))
    if not match:
        return ""
    doi = match["doi"].rstrip("./").lower()
    return doi.removesuffix(".pdf").removesuffix("/full").removesuffix("/abstract")


def isbn13(text: str) -> str:
    """The ISBN-13 (digits only) of an ISBN-10 or ISBN-13 with a valid check digit, or ""."""
    match = _ISBN_TEXT.match(_plain(text))
    if not match:
        return ""
    digits = match["isbn"].replace("-", "").replace(" ", "").upper()
    if len(digits) == 10 and digits[:9].isdigit():
        total = sum((10 - i) * (10 if c == "X" else int(c)) for i, c in enumerate(digits))
        if total % 11:
            return ""
        digits = "978" + digits[:9]
        return digits + str(-sum(int(c) * (3 if i % 2 else 1) for i, c in enumerate(digits)) % 10)
    if len(digits) == 13 and digits.isdigit():
        weights = sum(int(c) * (3 if i % 2 else 1) for i, c in enumerate(digits))
        return digits if weights % 10 == 0 else ""
    return ""


def _repository(host: str, path: str) -> tuple[str, bool]:
    if host != "github.com" or not (match := _GITHUB_PATH.match(path)):
        return "", False
    if match["owner"].lower() in _GITHUB_RESERVED:
        return "", False
    root = path.rstrip("/").removesuffix(".git") == f"/{match['owner']}/{match['name']}"
    return f"{match['owner']}/{match['name']}", root


def _openreview(host: str, path: str, query: str) -> str:
    if host != "openreview.net" or path not in _OPENREVIEW_PATHS:
        return ""
    ids = parse_qs(query).get("id", [])
    return ids[0] if ids and re.fullmatch(r"[A-Za-z0-9_\-]{4,40}", ids[0]) else ""


def _doi_in_url(host: str, path: str, query: str) -> str:
    if host in _DOI_HOSTS:
        return normalise_doi(path.lstrip("/"))
    if "/10." in path:
        return normalise_doi(path[path.index("/10.") + 1 :])
    for value in parse_qs(query).get("doi", []):
        if doi := normalise_doi(value):
            return doi
    return ""


def lookalike_host(host: str) -> str:
    """Why a host (in its ASCII form) looks like another site's, or "": Latin letters mixed
    with letters of a script that has look-alikes of them (a Cyrillic "a" in "arxiv.org")."""
    try:
        shown = host.encode("ascii").decode("idna") if "xn--" in host else host
    except UnicodeError:
        return ""
    scripts = {unicodedata.name(ch, "").split(" ")[0] for ch in shown if ch.isalpha()}
    mixed = sorted(scripts & _LOOKALIKE_SCRIPTS)
    if "LATIN" not in scripts or not mixed:
        return ""
    others = " and ".join(name.title() for name in mixed)
    return (
        f"This address uses look-alike characters: its host {shown} mixes Latin letters with "
        f"{others} ones, so it is a different site ({host}) from the one it resembles. Check "
        "that it is the address you mean."
    )


def _url_keys(url: str) -> WorkKeys:
    parts = urlsplit(url)
    host = (parts.hostname or "").removeprefix("www.")
    repository, root = _repository(host, parts.path)
    doi = ascii_digits(_doi_in_url(host, parts.path, parts.query))
    paper = ascii_digits(arxiv_id(url))
    if not paper and (arxiv_doi := _ARXIV_DOI.match(doi)):
        paper = arxiv_doi["id"]
    return WorkKeys(
        url=url,
        canonical_url=_compared(url),
        arxiv=paper,
        doi=doi,
        repository=repository,
        is_repository_root=root,
        openreview=_openreview(host, parts.path, parts.query),
        lookalike=lookalike_host(parts.hostname or ""),
    )


def work_keys(text: str) -> WorkKeys:
    """The keys of the work a URL or identifier names; empty keys for an empty string.

    Raises InvalidURL (a ValueError with a reason for a form) for anything that is neither an
    identifier nor an absolute http(s) URL, so hostile input never raises anything else; too
    long or carrying invisible characters is refused before it is parsed.
    """
    text = prepared(text)
    if not text:
        return WorkKeys()
    if "://" not in text:  # an identifier: any script's digits are its digits
        text = ascii_digits(text)
    if paper := _ARXIV_TEXT.match(text):
        url = f"https://arxiv.org/abs/{paper['id']}"
        return WorkKeys(url=url, canonical_url=url, arxiv=paper["id"])
    if (_DOI_PREFIX.match(text) or text.startswith("10.")) and (doi := normalise_doi(text)):
        arxiv_doi = _ARXIV_DOI.match(doi)
        url = f"https://doi.org/{doi}"
        return WorkKeys(
            url=url, canonical_url=url, doi=doi, arxiv=arxiv_doi["id"] if arxiv_doi else ""
        )
    if isbn := isbn13(text):
        return WorkKeys(isbn=isbn)
    return _url_keys(canonical_url(text))


NAMED_BY = ["URL", "arXiv id", "DOI", "ISBN", "repository"]


def how_named(keys: WorkKeys, source: Any) -> str:
    """How a catalogued source (anything with url, arxiv_id, doi, isbn and repository) shares
    a key with the work, most specific first, or "" when it does not."""
    if keys.url and source.url.casefold() in {u.casefold() for u in keys.url_variants}:
        return "URL"
    for reason, mine, theirs in (
        ("arXiv id", keys.arxiv, source.arxiv_id),
        ("DOI", keys.doi, source.doi.lower()),
        ("ISBN", keys.isbn, source.isbn),
        ("repository", keys.repository.lower(), source.repository.lower()),
    ):
        if mine and mine == theirs:
            return reason
    return ""


def work_keys_or_empty(text: str) -> WorkKeys:
    """work_keys for places that already reported a bad URL elsewhere (or need not)."""
    try:
        return work_keys(text)
    except InvalidURL:
        return WorkKeys()


def _checked_text(value: str) -> str:
    """A catalog file's identifier as it is checked: prepared, with ASCII digits."""
    try:
        return ascii_digits(prepared(value))
    except InvalidURL as exc:
        raise InvalidIdentifier(str(exc)) from exc


def check_arxiv(value: str) -> str:
    """A catalog file's arXiv id: new-style NNNN.NNNNN or old-style archive/NNNNNNN, no version."""
    value = _checked_text(value)
    if not ARXIV_ID.match(value):
        raise InvalidIdentifier(
            f"'{value}' is not an arXiv id (like 1706.03762 or cs/0101001, no version)"
        )
    return value


def check_doi(value: str) -> str:
    """A catalog file's DOI: bare (10.NNNN/suffix), without https://doi.org/; kept lower-case."""
    value = _checked_text(value)
    if not DOI.match(value):
        raise InvalidIdentifier(f"'{value}' is not a bare DOI (like 10.1145/3600006.3613165)")
    return value.lower()


def check_isbn(value: str) -> str:
    """A catalog file's ISBN, stored as ISBN-13 digits."""
    digits = _checked_text(value).replace("-", "")
    if not re.fullmatch(r"\d{9}[\dX]|\d{13}", digits) or not (isbn := isbn13(digits)):
        raise InvalidIdentifier(f"'{value}' is not a valid ISBN-10 or ISBN-13 (check digit)")
    return isbn


def check_repository(value: str) -> str:
    """A catalog file's repository: GitHub owner/name."""
    value = _checked_text(value)
    if not REPOSITORY.match(value) or value.split("/")[1] in {".", ".."}:
        raise InvalidIdentifier(f"'{value}' is not a GitHub owner/name (like vllm-project/vllm)")
    return value
