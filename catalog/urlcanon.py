"""One canonical form for every URL that enters the catalog (loader, admin, proposals, checks).

Two spellings of the same work must compare equal, so duplicates are caught wherever a URL
arrives: scheme and host case, default ports, a trailing slash, and arXiv's abs/pdf/html pages
with or without a version suffix all collapse to one string.
"""

import re
from urllib.parse import urlsplit, urlunsplit

_ARXIV_HOSTS = {"arxiv.org", "www.arxiv.org", "export.arxiv.org"}
_ARXIV_PATH = re.compile(
    r"^/(?:abs|pdf|html)/(?P<id>\d{4}\.\d{4,5}|[a-z\-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?(?:\.pdf)?/?$"
)
_DEFAULT_PORTS = {"http": "80", "https": "443"}


class InvalidURL(ValueError):
    pass


def canonical_url(raw: str) -> str:
    """Return the canonical form of an http(s) URL, or "" for an empty one.

    Raises InvalidURL for anything that is not an absolute http(s) URL or that contains
    white space (the seeds lost underscores as spaces; we never guess them back silently).
    """
    url = (raw or "").strip()
    if not url:
        return ""
    if any(ch.isspace() for ch in url):
        raise InvalidURL("A URL may not contain spaces.")
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS or not parts.hostname:
        raise InvalidURL("Enter an absolute http:// or https:// URL.")
    host = parts.hostname.lower()
    if parts.port and str(parts.port) != _DEFAULT_PORTS[scheme]:
        host = f"{host}:{parts.port}"
    if host in _ARXIV_HOSTS and (match := _ARXIV_PATH.match(parts.path)):
        return f"https://arxiv.org/abs/{match['id']}"
    path = parts.path
    if path.endswith("/") and path != "/":
        path = path.rstrip("/")
    if path == "/":
        path = ""
    return urlunsplit((scheme, host, path, parts.query, ""))


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
