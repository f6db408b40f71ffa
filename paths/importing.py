"""A Markdown list of links (an awesome-list README, a team's wiki page) matched to the catalog.

`match_markdown(text)` reads the links in document order: inline `[text](url)`, reference-style
`[text][ref]` (markdown-it resolves them), autolinks `<url>`, bare `https://…` addresses in the
text and `<a href>` in raw HTML; each heading names the section of the links under it. Links to
the page itself (`#anchors`, relative paths) and `mailto:` are not reading and are passed over;
a badge (a link around an image only) too. Each link is matched to a published source by its
identity keys (`catalog.identity.work_keys`: arXiv id in any form, DOI, repository, ISBN, the URL
in any spelling), in one query for the whole file. A work linked twice is kept once, where it
first appears.

Bad input never raises: a binary file or one that is not UTF-8 is refused with a message; only
the first MAX_CHARS characters are read and the first MAX_LINKS links matched, and `errors` says
what was left out.
"""

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from html.parser import HTMLParser
from itertools import chain

from django.db.models import Q
from django.db.models.functions import Lower
from markdown_it import MarkdownIt
from markdown_it.token import Token

from catalog.identity import NAMED_BY, WorkKeys, work_keys
from catalog.models import Source
from catalog.urlcanon import InvalidURL

# markdown-it-py reads about 150,000 characters a second here: the cap keeps a file to ~2 s.
MAX_CHARS = 300_000
MAX_LINKS = 1_000
MAX_TEXT = 300  # a link's text, as kept
SNIFF = 8_192  # how much of a file is looked at to tell text from binary
# Characters that never occur in text a person wrote: NUL and most C0 controls.
BINARY = re.compile(r"[\x00-\x08\x0e-\x1a\x1c-\x1f]")
BARE_URL = re.compile(r"https?://[^\s<>\"'`]+", re.IGNORECASE)
# GFM's rule for a bare address: trailing punctuation is the sentence's, not the address's.
TRAILING = ".,:;!?*_~'\""
SCHEME = re.compile(r"^[a-z][a-z0-9+.\-]*:", re.IGNORECASE)
IDENTIFIER_SCHEMES = ("doi:", "arxiv:", "isbn:")


@dataclass(frozen=True)
class ImportedLink:
    url: str
    text: str
    section: str | None
    source: Source | None


@dataclass(frozen=True)
class ImportResult:
    matched: list[ImportedLink]
    unmatched: list[ImportedLink]
    errors: list[str]


@dataclass
class FoundLink:
    url: str
    text: str
    section: str | None


@dataclass
class LinkScan:
    """The links a text holds, in order, and what could not be read."""

    links: list[FoundLink] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def match_markdown(text: str | bytes) -> ImportResult:
    """The links of a Markdown text, each with the published source it names or None."""
    scan = read_links(text)
    keyed, errors = identified(scan.links)
    sources = sources_for([keys for _, keys in keyed])
    matched, unmatched = [], []
    seen_sources: set[int] = set()
    for link, keys in keyed:
        source = sources.find(keys)
        if source is not None and source.pk in seen_sources:
            continue
        imported = ImportedLink(link.url, link.text, link.section, source)
        if source is None:
            unmatched.append(imported)
        else:
            seen_sources.add(source.pk)
            matched.append(imported)
    return ImportResult(matched, unmatched, scan.errors + errors)


def read_links(text: str | bytes) -> LinkScan:
    """The links of a Markdown text, in order, each once; no database."""
    decoded, problem = as_text(text)
    if problem:
        return LinkScan(errors=[problem])
    scan = LinkScan()
    if len(decoded) > MAX_CHARS:
        scan.errors.append(
            f"The text is {len(decoded):,} characters long: only the first {MAX_CHARS:,} "
            "were read. Split it and import the rest separately."
        )
        decoded = decoded[:MAX_CHARS]
    links = unique(link for link in parsed_links(decoded) if reading_address(link.url))
    if len(links) > MAX_LINKS:
        skipped = links[MAX_LINKS:]
        scan.errors.append(
            f"The text links to {len(links):,} addresses: the first {MAX_LINKS:,} were read, "
            f"and {len(skipped):,} more from {skipped[0].url} on were skipped. Split the list "
            "and import the rest separately."
        )
        links = links[:MAX_LINKS]
    scan.links = links
    return scan


def as_text(text: str | bytes) -> tuple[str, str | None]:
    """The text to read, or the reason it cannot be read."""
    if isinstance(text, bytes):
        if BINARY.search(text[:SNIFF].decode("latin-1")):
            return "", binary_message()
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            return "", (
                f"This file is not UTF-8 text (byte {exc.object[exc.start]:#04x} at position "
                f"{exc.start:,} cannot be read). Save it as UTF-8 and import it again."
            )
    if BINARY.search(text[:SNIFF]):
        return "", binary_message()
    if re.search(r"[\ud800-\udfff]", text):
        # Bytes a decoder kept as lone surrogates (surrogateescape): the file was not UTF-8.
        return "", "This file is not UTF-8 text. Save it as UTF-8 and import it again."
    return text.removeprefix("\ufeff"), None


def binary_message() -> str:
    return (
        "This file is not text: it looks like a binary file (an image, a PDF, an archive). "
        "Import the Markdown file itself (.md or .txt)."
    )


def unique(links: Iterable[FoundLink]) -> list[FoundLink]:
    """Each address once, where it first appears."""
    seen: set[str] = set()
    kept = []
    for link in links:
        if link.url not in seen:
            seen.add(link.url)
            kept.append(link)
    return kept


def _markdown() -> MarkdownIt:
    # html=True so that <a href> in a README's raw HTML is read; nothing is rendered.
    md = MarkdownIt("commonmark", {"html": True, "linkify": False})
    md.enable(["table"])
    return md


MARKDOWN = _markdown()


def parsed_links(text: str) -> list[FoundLink]:
    """Every link of the text in document order, the nearest heading above it as its section."""
    links: list[FoundLink] = []
    section: str | None = None
    tokens = MARKDOWN.parse(text)
    for index, token in enumerate(tokens):
        if token.type == "inline":
            if index and tokens[index - 1].type == "heading_open":
                section = plain_text(token) or None
            links += [FoundLink(url, label, section) for url, label in inline_links(token)]
        elif token.type == "html_block":
            links += [FoundLink(url, label, section) for url, label in html_links(token.content)]
    return links


def inline_links(token: Token) -> list[tuple[str, str]]:
    """The (address, text) pairs of one inline token: its links, bare addresses in its text,
    and anchors in its raw HTML."""
    found: list[tuple[str, str]] = []
    href: str | None = None
    label: list[str] = []
    only_images = True
    for child in token.children or []:
        if child.type == "link_open":
            href, label, only_images = str(child.attrs.get("href", "")), [], True
        elif child.type == "link_close" and href is not None:
            if not only_images or label:
                found.append((href, clean_text(" ".join(label)) or href))
            href = None
        elif href is not None:
            only_images &= child.type == "image"
            if child.type in ("text", "code_inline"):
                label.append(child.content)
        elif child.type == "text":
            found += [(url, url) for url in bare_urls(child.content)]
        elif child.type == "html_inline" and child.content.lower().startswith("<a"):
            found += html_links(token.content)
    return found


def plain_text(token: Token) -> str:
    """An inline token's words as a reader sees them: no markup, no images."""
    words = (c.content for c in token.children or [] if c.type in ("text", "code_inline"))
    return clean_text(" ".join(words))


def bare_urls(text: str) -> list[str]:
    urls = []
    for match in BARE_URL.finditer(text):
        url = match.group().rstrip(TRAILING)
        while url.endswith(")") and url.count(")") > url.count("("):
            url = url[:-1].rstrip(TRAILING)
        urls.append(url)
    return urls


class AnchorParser(HTMLParser):
    """The href and text of every <a> in a piece of HTML."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.anchors: list[tuple[str, str]] = []
        self.href: str | None = None
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            self.href, self.text = dict(attrs).get("href") or "", []

    def handle_data(self, data: str) -> None:
        if self.href is not None:
            self.text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self.href is not None:
            if self.href:
                self.anchors.append((self.href, clean_text(" ".join(self.text)) or self.href))
            self.href = None


def html_links(html: str) -> list[tuple[str, str]]:
    parser = AnchorParser()
    parser.feed(html)
    parser.close()
    return parser.anchors


def clean_text(text: str) -> str:
    return " ".join(text.split())[:MAX_TEXT]


def identified(links: list[FoundLink]) -> tuple[list[tuple[FoundLink, WorkKeys]], list[str]]:
    """Each link with the keys of the work it names, the same work once; a line for each link
    that is no web address."""
    keyed: list[tuple[FoundLink, WorkKeys]] = []
    errors: list[str] = []
    seen: set[str] = set()
    for link in links:
        address = link.url.strip()
        try:
            keys = work_keys(address)
        except InvalidURL as exc:
            errors.append(f"“{clean_text(address)[:120]}” is not a web address ({exc}); skipped.")
            continue
        if not keys or (work := work_key(keys)) in seen:
            continue
        seen.add(work)
        keyed.append((link, keys))
    return keyed, errors


def work_key(keys: WorkKeys) -> str:
    """The key two links must share to name one work: an identifier, the repository for its
    own page, else the URL (two pages of one repository are two works)."""
    for kind, value in (("arxiv", keys.arxiv), ("doi", keys.doi), ("isbn", keys.isbn)):
        if value:
            return f"{kind}:{value}"
    if keys.openreview:
        return f"openreview:{keys.openreview}"
    if keys.is_repository_root:
        return f"repository:{keys.repository.lower()}"
    return f"url:{keys.canonical_url.casefold()}"


def reading_address(address: str) -> bool:
    """A web address or an identifier (doi:, arXiv:, ISBN:), not the page's own anchor,
    a relative path or a mail address."""
    lowered = address.lower()
    if lowered.startswith(IDENTIFIER_SCHEMES) or lowered.startswith(("http://", "https://")):
        return True
    return bool(SCHEME.match(address)) and not lowered.startswith("mailto:")


@dataclass
class CatalogMatches:
    """The published sources a set of keys name, by each key, to find one link's source."""

    by_url: dict[str, Source] = field(default_factory=dict)
    by_arxiv: dict[str, Source] = field(default_factory=dict)
    by_doi: dict[str, Source] = field(default_factory=dict)
    by_isbn: dict[str, Source] = field(default_factory=dict)
    by_repository: dict[str, Source] = field(default_factory=dict)

    def find(self, keys: WorkKeys) -> Source | None:
        """The source the keys name, by the most specific key first (as catalog.identity's
        NAMED_BY: URL, arXiv id, DOI, ISBN, repository)."""
        lookups = {
            "URL": [self.by_url.get(url.casefold()) for url in keys.url_variants],
            "arXiv id": [self.by_arxiv.get(keys.arxiv)] if keys.arxiv else [],
            "DOI": [self.by_doi.get(keys.doi)] if keys.doi else [],
            "ISBN": [self.by_isbn.get(keys.isbn)] if keys.isbn else [],
            "repository": [self.by_repository.get(keys.repository.lower())]
            if keys.repository
            else [],
        }
        found = chain.from_iterable(lookups[how] for how in NAMED_BY)
        return next((source for source in found if source is not None), None)


def sources_for(all_keys: list[WorkKeys]) -> CatalogMatches:
    """The published sources any of the keys name: one query, none without keys."""
    matches = CatalogMatches()
    urls = {url.casefold() for keys in all_keys for url in keys.url_variants}
    wanted = {
        "arxiv_id__in": {keys.arxiv for keys in all_keys if keys.arxiv},
        "doi__in": {keys.doi for keys in all_keys if keys.doi},
        "isbn__in": {keys.isbn for keys in all_keys if keys.isbn},
        "repository_key__in": {keys.repository.lower() for keys in all_keys if keys.repository},
        "url_key__in": urls,
    }
    condition = Q(pk__in=[])
    for lookup, values in wanted.items():
        if values:
            condition |= Q(**{lookup: sorted(values)})
    if not any(wanted.values()):
        return matches
    rows = (
        Source.objects.published()
        .alias(url_key=Lower("url"), repository_key=Lower("repository"))
        .filter(condition)
        .order_by("pk")
    )
    for source in rows:
        matches.by_url.setdefault(source.url.casefold(), source)
        for index, value in (
            (matches.by_arxiv, source.arxiv_id),
            (matches.by_doi, source.doi.lower()),
            (matches.by_isbn, source.isbn),
            (matches.by_repository, source.repository.lower()),
        ):
            if value:
                index.setdefault(value, source)
    return matches
