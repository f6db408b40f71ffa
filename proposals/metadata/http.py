"""The metadata fetchers' GET, through the project's outbound policy (readinglist/http.py): what
the server answered, turned into the reader's words."""

from dataclasses import dataclass
from urllib.parse import urlsplit

from readinglist.http import FetchFailed, Refused, fetch

MAX_REDIRECTS = 3
MAX_BYTES = 2_000_000


class NotFound(FetchFailed):
    """The server says there is nothing at this address."""


@dataclass(frozen=True)
class Fetched:
    url: str
    text: str
    content_type: str


def get(url: str, *, accept: str = "*/*") -> Fetched:
    """GET the URL. Raises Refused, NotFound or FetchFailed, each with the reader's message."""
    answer = fetch(
        url, max_bytes=MAX_BYTES, headers={"Accept": accept}, max_redirects=MAX_REDIRECTS
    )
    host = urlsplit(answer.url).hostname or answer.url
    if answer.status in (404, 410):
        raise NotFound(f"{host} has nothing at this address.")
    if answer.status >= 400:
        raise FetchFailed(f"{host} answered with an error ({answer.status}).")
    if 300 <= answer.status < 400:
        raise FetchFailed(f"{host} redirected without saying where.")
    return Fetched(url=answer.url, text=answer.text, content_type=answer.content_type)


__all__ = ["FetchFailed", "Fetched", "NotFound", "Refused", "get"]
