"""The one outbound HTTP policy: every request this project sends to another server goes through
`fetch()` (proposal autofill, link checks, feed collectors).

- **Only http(s) to public addresses** (readinglist.http_guard). The host is resolved, every
  address it resolves to is checked, and the connection goes to the checked address itself, so
  a DNS answer that changes between check and connect (rebinding) cannot redirect it. Redirects
  are followed by hand and every hop is checked again.
- **One total deadline per exchange** (readinglist.http_deadline). DNS, connect, TLS, the
  request, the headers and the body of every hop share it. Each socket read and write gets only
  the time left, so a server that trickles a byte every few seconds is cut at the deadline: a
  per-read timeout alone is reset by every byte and would hold a worker for minutes.
- **A cap on fetches in flight per process.** When every slot is taken a fetch is refused at
  once (`Busy`), so web workers never queue behind slow servers; a batch job may wait for a slot
  within its own deadline (`wait_for_slot`).
- **Politeness and bounds:** a User-Agent naming the site and a contact, a cap on the body read
  (the rest is never downloaded), conditional GET (ETag, Last-Modified) and an optional small
  cache in an evictable alias.

Callers import every name from here; the errors (readinglist.http_errors) and the address
check (readinglist.http_guard) live in modules of their own.
"""

import functools
import hashlib
import ssl
import threading
import time
from dataclasses import dataclass, field, replace
from urllib.parse import urljoin

import certifi
import httpcore
from django.conf import settings
from django.core.cache import caches

from .http_deadline import Deadline, DeadlineBackend
from .http_errors import (
    NETWORK_ERRORS,
    Busy,
    FetchFailed,
    HostNotFound,
    OutboundError,
    Refused,
    Slow,
    TimedOut,
    TLSFailed,
    TooManyRedirects,
    Unreachable,
    reached_no_host,
)
from .http_guard import (
    ALLOWED_SCHEMES,
    DEFAULT_PORTS,
    Target,
    check_url,
    refusal_reason,
    resolve,
)

__all__ = [
    "ALLOWED_SCHEMES",
    "DEFAULT_PORTS",
    "NETWORK_ERRORS",
    "REDIRECTS",
    "Busy",
    "FetchFailed",
    "Fetched",
    "HostNotFound",
    "OutboundError",
    "Refused",
    "Slow",
    "TLSFailed",
    "Target",
    "TimedOut",
    "TooManyRedirects",
    "Unreachable",
    "check_url",
    "fetch",
    "reached_no_host",
    "refusal_reason",
    "resolve",
    "user_agent",
]

REDIRECTS = {301, 302, 303, 307, 308}


def user_agent() -> str:
    return f"readinglist/1.0 (+https://{settings.SITE_DOMAIN}; {settings.LINKCHECK_CONTACT_URL})"


@dataclass(frozen=True)
class Fetched:
    """One answer: its status, headers (lower-case names), body (at most max_bytes) and the URL
    it came from after redirects. `not_modified` marks a cached body confirmed by a 304."""

    status: int
    url: str
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""
    not_modified: bool = False

    @property
    def content_type(self) -> str:
        return self.headers.get("content-type", "")

    @property
    def etag(self) -> str:
        return self.headers.get("etag", "")

    @property
    def last_modified(self) -> str:
        return self.headers.get("last-modified", "")

    @property
    def location(self) -> str:
        return self.headers.get("location", "")

    @property
    def text(self) -> str:
        charset = "utf-8"
        for part in self.content_type.split(";")[1:]:
            name, _, value = part.partition("=")
            if name.strip().lower() == "charset" and value.strip():
                charset = value.strip().strip("\"'")
        try:
            return self.body.decode(charset, errors="replace")
        except LookupError:
            return self.body.decode("utf-8", errors="replace")


@functools.cache
def _tls_context(ca_file: str) -> ssl.SSLContext:
    # Loading the CA bundle takes milliseconds; a context is safe to share between threads.
    return ssl.create_default_context(cafile=ca_file)


_slots_lock = threading.Lock()
_slots: dict[int, threading.BoundedSemaphore] = {}


def _process_slots() -> threading.BoundedSemaphore:
    size = max(int(settings.OUTBOUND_MAX_CONCURRENT), 1)
    with _slots_lock:
        return _slots.setdefault(size, threading.BoundedSemaphore(size))


def fetch(
    url: str,
    *,
    max_bytes: int | None = None,
    deadline: float | None = None,
    headers: dict[str, str] | None = None,
    method: str = "GET",
    etag: str = "",
    last_modified: str = "",
    max_redirects: int = 3,
    cache_seconds: int = 0,
    wait_for_slot: float = 0.0,
    ca_file: str | None = None,
) -> Fetched:
    """Request `url` under the policy and return the final answer, whatever its status.

    `deadline` (seconds, default OUTBOUND_DEADLINE_SECONDS) bounds the whole exchange, redirects
    included; `max_bytes` (default OUTBOUND_MAX_BYTES) caps the body read. `etag` and
    `last_modified` make the GET conditional: an unchanged resource answers 304 with no body.
    With `cache_seconds`, a small answer is kept and served for that long, then revalidated with
    its validators; a 304 then returns the kept body with `not_modified=True`. `max_redirects=0`
    returns a redirect as it is (for callers that follow and judge hops themselves).

    Raises Refused (HostNotFound), or FetchFailed (TimedOut, Unreachable, TLSFailed, Busy,
    TooManyRedirects); every message is fit to show a reader.
    """
    limit = Deadline(deadline or settings.OUTBOUND_DEADLINE_SECONDS)
    kept = _cached(url, method) if cache_seconds else None
    if kept is not None and time.time() < kept.fresh_until:
        return kept.answer
    sent = dict(headers or {})
    if etag := etag or (kept.answer.etag if kept else ""):
        sent["If-None-Match"] = etag
    if last_modified := last_modified or (kept.answer.last_modified if kept else ""):
        sent["If-Modified-Since"] = last_modified
    exchange = _Exchange(
        method=method,
        headers=sent,
        limit=limit,
        max_bytes=max_bytes or settings.OUTBOUND_MAX_BYTES,
        context=_tls_context(ca_file or certifi.where()),
    )
    slots = _process_slots()
    wait = min(wait_for_slot, limit.left(TimedOut))
    if not slots.acquire(blocking=wait > 0, timeout=wait if wait > 0 else None):
        raise Busy("Too many outside requests are in progress here; try again in a moment.")
    try:
        answer = exchange.follow(url, max_redirects)
    finally:
        slots.release()
    if kept is not None and answer.status == 304:
        answer = replace(kept.answer, not_modified=True)
    if cache_seconds and answer.status in (200, 203) and len(answer.body) <= _CACHE_MAX_BYTES:
        _keep(url, method, answer, cache_seconds)
    return answer


@dataclass(frozen=True)
class _Exchange:
    method: str
    headers: dict[str, str]
    limit: Deadline
    max_bytes: int
    context: ssl.SSLContext

    def follow(self, url: str, max_redirects: int) -> Fetched:
        for hop in range(max_redirects + 1):
            try:
                answer = self.one_hop(url)
            except TimedOut as exc:
                if hop and not isinstance(exc, Slow):  # an earlier hop did answer
                    raise Slow(str(exc)) from exc
                raise
            if max_redirects == 0 or answer.status not in REDIRECTS or not answer.location:
                return answer
            url = urljoin(url, answer.location)
        raise TooManyRedirects(f"It redirected more than {max_redirects} times.")

    def one_hop(self, url: str) -> Fetched:
        target = check_url(url, timeout=self.limit.left(TimedOut))
        sent = {"User-Agent": user_agent(), "Accept": "*/*", **self.headers}
        # Bodies are read as sent: the byte cap then counts what crossed the network.
        sent |= {"Host": target.host_header, "Accept-Encoding": "identity"}
        extensions = {"sni_hostname": target.host} if target.scheme == "https" else {}
        backend = DeadlineBackend(self.limit)
        pool = httpcore.ConnectionPool(ssl_context=self.context, network_backend=backend)
        try:
            with (
                pool,
                pool.stream(
                    self.method,
                    target.connect_url,
                    headers=list(sent.items()),
                    extensions=extensions,
                ) as response,
            ):
                body = b"" if self.method == "HEAD" else _read_capped(response, self.max_bytes)
        except httpcore.ConnectTimeout as exc:
            raise TimedOut(f"{target.host} took too long to answer.") from exc
        except httpcore.TimeoutException as exc:
            # Connected: the host is there, it answers too slowly.
            raise Slow(f"{target.host} took too long to answer.") from exc
        except httpcore.ConnectError as exc:
            # httpcore keeps the socket's error as the argument (its pool re-raises without
            # a cause).
            original = exc.args[0] if exc.args else None
            if isinstance(original, ssl.SSLError):
                raise TLSFailed(_tls_reason(original)) from exc
            raise Unreachable(f"{target.host} could not be reached.") from exc
        except (httpcore.NetworkError, httpcore.ProtocolError, OSError) as exc:
            raise FetchFailed(f"{target.host} stopped answering.") from exc
        return Fetched(status=response.status, url=url, headers=_names(response), body=body)


def _names(response: httpcore.Response) -> dict[str, str]:
    return {
        name.decode("latin-1").lower(): value.decode("latin-1") for name, value in response.headers
    }


def _read_capped(response: httpcore.Response, cap: int) -> bytes:
    chunks, size = [], 0
    for chunk in response.iter_stream():
        chunks.append(chunk)
        size += len(chunk)
        if size >= cap:
            # Closing the response hangs up: the rest of the body is never downloaded.
            break
    return b"".join(chunks)[:cap]


def _tls_reason(error: ssl.SSLError) -> str:
    if isinstance(error, ssl.SSLCertVerificationError):
        return "certificate verify failed"
    return (error.reason or str(error))[:200]


# The small cache: answers of at most this size, in an alias that may evict them.
_CACHE_MAX_BYTES = 256 * 1024
_CACHE_KEEP_SECONDS = 7 * 24 * 60 * 60


def _cache_key(url: str, method: str) -> str:
    return "outbound:" + hashlib.sha256(f"{method} {url}".encode()).hexdigest()


@dataclass(frozen=True)
class _Kept:
    answer: Fetched
    fresh_until: float


def _cached(url: str, method: str) -> _Kept | None:
    kept = caches[settings.OUTBOUND_CACHE_ALIAS].get(_cache_key(url, method))
    return kept if isinstance(kept, _Kept) else None


def _keep(url: str, method: str, answer: Fetched, fresh_seconds: int) -> None:
    kept = _Kept(answer=answer, fresh_until=time.time() + fresh_seconds)
    # Kept past its freshness so its validators can make the next request conditional.
    caches[settings.OUTBOUND_CACHE_ALIAS].set(
        _cache_key(url, method), kept, max(_CACHE_KEEP_SECONDS, fresh_seconds)
    )
