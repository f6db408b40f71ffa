"""One guarded GET: short timeouts, a polite User-Agent, a size cap and redirects followed by
hand, so every hop passes the SSRF guard again."""

import time
from dataclasses import dataclass
from urllib.parse import urljoin

import httpx
from django.conf import settings

from .guard import Refused, check_url

MAX_REDIRECTS = 3
MAX_BYTES = 2_000_000
TIMEOUT = httpx.Timeout(connect=3.0, read=5.0, write=5.0, pool=3.0)
# A server that trickles bytes passes each read timeout; this caps the whole response.
TOTAL_SECONDS = 10.0


class FetchFailed(Exception):
    """The fetch did not produce an answer; the message is for the reader."""


class NotFound(FetchFailed):
    """The server says there is nothing at this address."""


@dataclass(frozen=True)
class Fetched:
    url: str
    text: str
    content_type: str


def user_agent() -> str:
    return (
        f"readinglist/1.0 (+https://{settings.SITE_DOMAIN}; metadata for proposals; "
        f"{settings.LINKCHECK_CONTACT_URL})"
    )


def get(url: str, *, accept: str = "*/*") -> Fetched:
    """GET the URL through the guard. Raises Refused, NotFound or FetchFailed."""
    with httpx.Client(timeout=TIMEOUT, follow_redirects=False, trust_env=False) as client:
        for _hop in range(MAX_REDIRECTS + 1):
            response_or_next = _one_hop(client, url, accept)
            if isinstance(response_or_next, Fetched):
                return response_or_next
            url = response_or_next
    raise FetchFailed(f"It redirected more than {MAX_REDIRECTS} times.")


def _one_hop(client: httpx.Client, url: str, accept: str) -> Fetched | str:
    """The fetched page, or the next URL when the server redirects."""
    target = check_url(url)
    headers = {"Host": target.host_header, "User-Agent": user_agent(), "Accept": accept}
    extensions = {"sni_hostname": target.host} if target.scheme == "https" else {}
    request = client.build_request(
        "GET", target.connect_url, headers=headers, extensions=extensions
    )
    try:
        response = client.send(request, stream=True)
    except httpx.TimeoutException as exc:
        raise FetchFailed(f"{target.host} took too long to answer.") from exc
    except httpx.HTTPError as exc:
        raise FetchFailed(f"{target.host} could not be reached.") from exc
    try:
        if response.is_redirect:
            location = response.headers.get("location", "")
            if not location:
                raise FetchFailed(f"{target.host} redirected without saying where.")
            return urljoin(url, location)
        if response.status_code in (404, 410):
            raise NotFound(f"{target.host} has nothing at this address.")
        if response.status_code >= 400:
            raise FetchFailed(f"{target.host} answered with an error ({response.status_code}).")
        body = _read_capped(response, target.host)
        try:
            text = body.decode(response.encoding or "utf-8", errors="replace")
        except LookupError:
            text = body.decode("utf-8", errors="replace")
        return Fetched(url=url, text=text, content_type=response.headers.get("content-type", ""))
    finally:
        response.close()


def _read_capped(response: httpx.Response, host: str) -> bytes:
    started = time.monotonic()
    chunks, size = [], 0
    try:
        for chunk in response.iter_bytes():
            chunks.append(chunk)
            size += len(chunk)
            if size >= MAX_BYTES:
                break
            if time.monotonic() - started > TOTAL_SECONDS:
                raise FetchFailed(f"{host} took too long to answer.")
    except httpx.TimeoutException as exc:
        raise FetchFailed(f"{host} took too long to answer.") from exc
    except httpx.HTTPError as exc:
        raise FetchFailed(f"{host} stopped answering.") from exc
    return b"".join(chunks)[:MAX_BYTES]


__all__ = ["FetchFailed", "Fetched", "NotFound", "Refused", "get"]
