"""The link back to a quoted passage: the source's address with a text fragment.

A text fragment (https://wicg.github.io/scroll-to-text-fragment/) is
`#:~:text=[prefix-,]textStart[,-suffix]`; each term is percent-encoded, and the characters the
syntax itself uses ("&", "-", ",") must be encoded too. Browsers find such fragments in web
pages, not in PDFs, so a PDF source is linked without one.
"""

from urllib.parse import quote, urlsplit, urlunsplit

# Browsers match a little context, not a paragraph; long terms only make matching fragile.
CONTEXT_WORDS = 8


def _term(text: str) -> str:
    # quote() leaves "-" alone (it is unreserved in URLs), but it is syntax in a fragment.
    return quote(" ".join(text.split()), safe="").replace("-", "%2D")


def _is_web_page(url: str) -> bool:
    parts = urlsplit(url)
    return parts.scheme in {"http", "https"} and not parts.path.lower().endswith(".pdf")


def text_fragment(exact: str, prefix: str = "", suffix: str = "") -> str:
    """`:~:text=…` for the passage, or "" when there is no passage."""
    if not exact.strip():
        return ""
    term = _term(exact)
    before = " ".join(prefix.split()[-CONTEXT_WORDS:])
    after = " ".join(suffix.split()[:CONTEXT_WORDS])
    if before:
        term = f"{_term(before)}-,{term}"
    if after:
        term = f"{term},-{_term(after)}"
    return f":~:text={term}"


def quote_link(url: str, exact: str, prefix: str = "", suffix: str = "") -> str:
    """The source's address opening at the passage where the source is a web page; the plain
    address otherwise (and "" without an address)."""
    if not url:
        return ""
    fragment = text_fragment(exact, prefix, suffix)
    if not fragment or not _is_web_page(url):
        return url
    parts = urlsplit(url)
    # A fragment the address already had gives way: the passage is what the reader asked for.
    return urlunsplit(parts._replace(fragment=fragment))
