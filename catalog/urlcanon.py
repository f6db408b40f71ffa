"""One canonical form for every URL that enters the catalog (loader, admin, proposals, checks).

Two spellings of the same work must compare equal, so duplicates are caught wherever a URL
arrives: scheme and host case, default ports, a trailing slash, tracking parameters, fragments,
and arXiv's abs/pdf/html pages with or without a version suffix all collapse to one string.
The `www.` of a host is kept here, because some sites answer only on it; catalog.identity
compares URLs without it.

Hostile input (an out-of-range port, an unclosed IPv6 bracket, control characters) raises
InvalidURL with a reason a form can show, never anything else. Input is bounded and normalised
before it is parsed (`prepared`): at most MAX_INPUT_CHARS characters, refused at once when
longer; invisible control and bidirectional-override characters refused; Unicode compatibility
forms folded (NFKC: full-width letters and digits become ASCII). A host is kept in its ASCII
(IDNA) form, so a look-alike host is plainly another host.
"""

import re
import unicodedata
from urllib.parse import urlsplit, urlunsplit

_ARXIV_HOSTS = {"arxiv.org", "www.arxiv.org", "export.arxiv.org"}
_ARXIV_PATH = re.compile(
    r"^/(?:abs|pdf|html)/(?P<id>\d{4}\.\d{4,5}|[a-z\-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?(?:\.pdf)?/?$"
)
_DEFAULT_PORTS = {"http": 80, "https": 443}
# Parameters that say how a reader arrived, never which page they reached.
_TRACKING_NAMES = {
    "fbclid",
    "gclid",
    "dclid",
    "gbraid",
    "wbraid",
    "msclkid",
    "yclid",
    "igshid",
    "twclid",
    "ref",
    "ref_src",
    "ref_url",
    "_hsenc",
    "_hsmi",
    "mkt_tok",
    "spm",
}
_TRACKING_PREFIXES = ("utm_", "mc_", "pk_", "hsa_", "oly_")


# The longest address or identifier accepted (a URL field's length); longer input is refused
# before any of it is read.
MAX_INPUT_CHARS = 2000


class InvalidURL(ValueError):
    pass


def _invisible(text: str) -> str:
    """The first control or format character (bidi overrides, zero-width marks), named, or ""."""
    for ch in text:
        if unicodedata.category(ch) in ("Cc", "Cf"):
            name = unicodedata.name(ch, "a control character")
            return f"{name}, U+{ord(ch):04X}"
    return ""


def prepared(raw: str) -> str:
    """The input as it is matched: bounded, stripped, without invisible characters, NFKC.

    Raises InvalidURL for input over MAX_INPUT_CHARS (without reading it) and for control or
    bidirectional characters, which can make one address look like another.
    """
    raw = raw or ""
    if len(raw) > MAX_INPUT_CHARS:
        raise InvalidURL(
            f"This is {len(raw):,} characters long; an address or identifier has at most "
            f"{MAX_INPUT_CHARS:,}."
        )
    text = raw.strip()
    if invisible := _invisible(text):
        raise InvalidURL(
            f"This contains an invisible character ({invisible}) that can disguise an address; "
            "remove it and try again."
        )
    text = unicodedata.normalize("NFKC", text)
    if len(text) > MAX_INPUT_CHARS:
        raise InvalidURL(
            f"This is too long; an address has at most {MAX_INPUT_CHARS:,} characters."
        )
    return text


def ascii_digits(text: str) -> str:
    """Any script's decimal digits as ASCII digits (٢٤٠٣ → 2403), for identifiers."""
    if text.isascii():
        return text
    return "".join(str(unicodedata.decimal(ch)) if ch.isdecimal() else ch for ch in text)


def _is_tracking(pair: str) -> bool:
    name = pair.split("=", 1)[0].lower()
    return name in _TRACKING_NAMES or name.startswith(_TRACKING_PREFIXES)


def without_tracking(query: str) -> str:
    """The query string without tracking parameters, the others untouched and in order."""
    return "&".join(pair for pair in query.split("&") if pair and not _is_tracking(pair))


def _host(scheme: str, netloc_host: str | None, port: int | None) -> str:
    if not netloc_host:
        raise InvalidURL("Enter an absolute http:// or https:// URL.")
    host = netloc_host.lower().rstrip(".")
    if not host or any(ch in host for ch in "/\\@[]%"):
        raise InvalidURL("The address has no valid host name.")
    if not host.isascii():
        # Its ASCII (IDNA) form, as browsers send it: a Cyrillic "a" is visibly another host.
        try:
            host = host.encode("idna").decode("ascii")
        except UnicodeError as exc:
            raise InvalidURL("The address has no valid host name.") from exc
    if ":" in host:
        host = f"[{host}]"  # an IPv6 literal keeps its brackets
    if port is not None and port != _DEFAULT_PORTS[scheme]:
        host = f"{host}:{port}"
    return host


def canonical_url(raw: str) -> str:
    """Return the canonical form of an http(s) URL, or "" for an empty one.

    Raises InvalidURL for anything that is not an absolute http(s) URL or that contains
    white space (the seeds lost underscores as spaces; we never guess them back silently).
    """
    url = prepared(raw)
    if not url:
        return ""
    if any(ch.isspace() for ch in url):
        raise InvalidURL("A URL may not contain spaces.")
    try:
        parts = urlsplit(url)
        scheme = parts.scheme.lower()
        if scheme not in _DEFAULT_PORTS:
            raise InvalidURL("Enter an absolute http:// or https:// URL.")
        port = parts.port
        hostname = parts.hostname
    except ValueError as exc:  # urlsplit's own complaints: bad port, unclosed bracket
        if isinstance(exc, InvalidURL):
            raise
        raise InvalidURL(f"This is not a valid web address ({exc}).") from exc
    if port == 0:
        raise InvalidURL("This is not a valid web address (port 0).")
    host = _host(scheme, hostname, port)
    if host in _ARXIV_HOSTS and (match := _ARXIV_PATH.match(parts.path)):
        return f"https://arxiv.org/abs/{ascii_digits(match['id'])}"
    path = parts.path
    if path.endswith("/") and path != "/":
        path = path.rstrip("/")
    if path == "/":
        path = ""
    return urlunsplit((scheme, host, path, without_tracking(parts.query), ""))


def canonical_url_or_error(raw: str) -> tuple[str, str]:
    """For a model's clean(): the canonical URL and no error, or the raw URL and the reason."""
    try:
        return canonical_url(raw), ""
    except InvalidURL as exc:
        return raw, str(exc)


def arxiv_id(url: str) -> str:
    """The arXiv identifier of a canonical arXiv URL, or ""."""
    prefix = "https://arxiv.org/abs/"
    return url.removeprefix(prefix) if url.startswith(prefix) else ""
