"""Link health: check source URLs politely, in bounded time, and record what was found.

A check never downloads a whole page (HEAD first; GET reads at most `max_bytes`), follows at most
`max_redirects` redirects and notices loops, retries 5xx answers and timeouts with backoff, and
never takes longer than `url_deadline` seconds per URL. At most `per_host` requests run against
one host at a time. A host on the blocking list that answers 403/429 refuses robots, which says
nothing about whether the page exists: it is "blocked", not "broken".
"""

import threading
import time
from collections import Counter, defaultdict
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from urllib.parse import urljoin, urlsplit

import urllib3
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from urllib3.exceptions import (
    ConnectTimeoutError,
    HTTPError,
    LocationParseError,
    MaxRetryError,
    NameResolutionError,
    NewConnectionError,
    ProtocolError,
    ReadTimeoutError,
    SSLError,
)
from urllib3.exceptions import TimeoutError as Urllib3Timeout

from .models import Source

OK, BROKEN, BLOCKED = Source.LinkStatus.OK, Source.LinkStatus.BROKEN, Source.LinkStatus.BLOCKED
REDIRECTS = {301, 302, 303, 307, 308}
ROBOT_REFUSALS = {403, 429}
CHUNK = 8 * 1024


def user_agent():
    return f"readinglist-linkcheck/1.0 (+{settings.LINKCHECK_CONTACT_URL})"


@dataclass(frozen=True)
class CheckConfig:
    connect_timeout: float = 5.0
    read_timeout: float = 10.0
    url_deadline: float = 30.0
    retries: int = 2
    backoff: float = 1.0
    max_bytes: int = 64 * 1024
    max_redirects: int = 8
    per_host: int = 2
    workers: int = 8
    blocking_hosts: tuple = ()
    ca_certs: str | None = None


@dataclass
class LinkResult:
    url: str
    status: str
    code: int | None = None
    error: str = ""
    final_url: str = ""
    attempts: int = 1

    @property
    def retryable(self):
        return self.status == BROKEN and (
            (self.code is not None and self.code >= 500) or self.error.startswith("Timed out")
        )


class _Retryable(Exception):
    pass


@dataclass
class _Hop:
    code: int
    location: str = ""


class LinkChecker:
    def __init__(self, config=None):
        self.config = config or CheckConfig()
        self.pool = urllib3.PoolManager(
            num_pools=64,
            maxsize=max(self.config.per_host, 1),
            headers={"User-Agent": user_agent(), "Accept": "*/*"},
            cert_reqs="CERT_REQUIRED",
            ca_certs=self.config.ca_certs,
        )
        self._slots = defaultdict(lambda: threading.BoundedSemaphore(self.config.per_host))
        self._slots_lock = threading.Lock()

    def _slot(self, host):
        with self._slots_lock:
            return self._slots[host]

    def is_blocking_host(self, url):
        host = (urlsplit(url).hostname or "").lower()
        return any(
            host == listed or host.endswith("." + listed) for listed in self.config.blocking_hosts
        )

    # One URL.

    def check(self, url):
        """Check one URL: retries with exponential backoff, within the per-URL deadline."""
        deadline = time.monotonic() + self.config.url_deadline
        attempt = 0
        while True:
            attempt += 1
            result = self._check_once(url, deadline)
            result.attempts = attempt
            remaining = deadline - time.monotonic()
            pause = self.config.backoff * 2 ** (attempt - 1)
            if not result.retryable or attempt > self.config.retries or remaining <= pause:
                return result
            time.sleep(pause)

    def _check_once(self, url, deadline):
        seen, current = set(), url
        try:
            for _ in range(self.config.max_redirects + 1):
                if current in seen:
                    return LinkResult(url, BROKEN, error="Redirect loop", final_url=current)
                seen.add(current)
                hop = self._request("HEAD", current, deadline)
                if hop.code >= 400 or (hop.code in REDIRECTS and not hop.location):
                    # Many servers answer HEAD wrongly (405, 403, 404): ask with GET before judging.
                    hop = self._request("GET", current, deadline)
                if hop.code in REDIRECTS and hop.location:
                    current = urljoin(current, hop.location)
                    continue
                return self._judge(url, hop.code, current)
            return LinkResult(
                url,
                BROKEN,
                error=f"More than {self.config.max_redirects} redirects",
                final_url=current,
            )
        except _Retryable as exc:
            return LinkResult(url, BROKEN, error=str(exc), final_url=current)
        except SSLError as exc:
            return LinkResult(url, BROKEN, error=f"TLS error: {_reason(exc)}", final_url=current)
        except (NameResolutionError, NewConnectionError) as exc:
            return LinkResult(url, BROKEN, error=f"Cannot connect: {_reason(exc)}")
        except LocationParseError:
            return LinkResult(url, BROKEN, error="Not a valid URL")
        except (ProtocolError, HTTPError, OSError, ValueError) as exc:
            return LinkResult(url, BROKEN, error=f"Connection failed: {_reason(exc)}")
        except Exception as exc:
            # One odd answer must not stop a run over the whole catalog.
            return LinkResult(url, BROKEN, error=f"Check failed: {type(exc).__name__}")

    def _judge(self, url, code, final_url):
        if 200 <= code < 400:
            return LinkResult(url, OK, code=code, final_url=final_url)
        if code in ROBOT_REFUSALS and self.is_blocking_host(final_url):
            return LinkResult(url, BLOCKED, code=code, error=f"HTTP {code} (host refuses robots)")
        return LinkResult(url, BROKEN, code=code, error=f"HTTP {code}", final_url=final_url)

    def _request(self, method, url, deadline):
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise _Retryable("Timed out (deadline)")
        timeout = urllib3.Timeout(
            connect=min(self.config.connect_timeout, remaining),
            read=min(self.config.read_timeout, remaining),
        )
        host = urlsplit(url).netloc.lower()
        with self._slot(host):
            try:
                response = self.pool.request(
                    method,
                    url,
                    redirect=False,
                    retries=False,
                    timeout=timeout,
                    preload_content=False,
                )
            except Exception as exc:
                _reraise_classified(exc)
            try:
                if method == "GET":
                    self._read_capped(response, deadline)
                return _Hop(response.status, response.headers.get("Location", ""))
            except Exception as exc:
                _reraise_classified(exc)
            finally:
                # Closing (not draining) drops an unread body instead of downloading it.
                response.close()

    def _read_capped(self, response, deadline):
        read = 0
        while read < self.config.max_bytes:
            if time.monotonic() > deadline:
                raise _Retryable("Timed out reading the page")
            chunk = response.read(min(CHUNK, self.config.max_bytes - read))
            if not chunk:
                return
            read += len(chunk)

    # Many URLs.

    def check_many(self, urls, *, deadline=None, on_result=None):
        """Check URLs concurrently. Stops waiting at `deadline` seconds (if given): URLs not done
        by then are returned as unchecked, and nothing waits on them."""
        results, urls = {}, list(dict.fromkeys(urls))
        stop_at = time.monotonic() + deadline if deadline else None
        executor = ThreadPoolExecutor(max_workers=max(self.config.workers, 1))
        futures = {executor.submit(self.check, url): url for url in urls}
        pending = set(futures)
        try:
            while pending:
                timeout = None if stop_at is None else max(stop_at - time.monotonic(), 0)
                done, pending = wait(pending, timeout=timeout, return_when=FIRST_COMPLETED)
                if not done:
                    break
                for future in done:
                    result = future.result()
                    results[futures[future]] = result
                    if on_result:
                        on_result(result)
        finally:
            executor.shutdown(wait=False, cancel_futures=True)
        unchecked = [futures[future] for future in pending]
        return results, unchecked


def _reraise_classified(exc):
    """Timeouts are worth retrying; refused connections, DNS and TLS failures are not."""
    cause = exc.reason if isinstance(exc, MaxRetryError) and exc.reason is not None else exc
    # NewConnectionError subclasses ConnectTimeoutError in urllib3 2: test it first.
    if not isinstance(cause, (NewConnectionError, SSLError, _Retryable)) and isinstance(
        cause, (ConnectTimeoutError, ReadTimeoutError, Urllib3Timeout, TimeoutError)
    ):
        raise _Retryable("Timed out") from exc
    if cause is exc:
        raise exc
    raise cause from exc


def _reason(exc):
    reason = getattr(exc, "reason", None) or exc
    text = str(reason)
    if "CERTIFICATE_VERIFY_FAILED" in text or "certificate verify failed" in text:
        return "certificate verify failed"
    return text.split(": ", 1)[-1][:200] if ": " in text else text[:200]


@dataclass
class CheckSummary:
    counts: Counter = field(default_factory=Counter)
    broken: list = field(default_factory=list)
    unchecked: int = 0
    seconds: float = 0.0

    def lines(self):
        checked = sum(self.counts.values())
        yield (
            f"Checked {checked} link{'s' if checked != 1 else ''} in {self.seconds:.1f} s: "
            f"{self.counts[OK]} ok, {self.counts[BROKEN]} broken, {self.counts[BLOCKED]} blocked"
            + (f", {self.unchecked} not checked (deadline reached)" if self.unchecked else "")
        )
        for slug, url, error in self.broken:
            yield f"  broken: {slug} ({url}): {error}"


def record_result(source, result, now=None):
    """Store a check on its source: status, code, error, when, and since when it fails."""
    now = now or timezone.now()
    source.link_status = result.status
    source.link_status_code = result.code
    source.link_error = result.error[:300]
    source.link_checked_at = now
    if result.status == BROKEN:
        source.link_failing_since = source.link_failing_since or now
    else:
        source.link_failing_since = None
    with transaction.atomic():
        source.save(
            update_fields=[
                "link_status",
                "link_status_code",
                "link_error",
                "link_checked_at",
                "link_failing_since",
            ]
        )


def check_sources(sources, *, config, deadline=None, progress=None):
    """Check the sources' URLs and record each result as it arrives (in this thread, so the
    database is only touched from one connection). Returns a CheckSummary."""
    started = time.monotonic()
    by_url = {source.url: source for source in sources if source.url}
    summary = CheckSummary()

    def store(result):
        source = by_url[result.url]
        record_result(source, result)
        summary.counts[result.status] += 1
        if result.status == BROKEN:
            summary.broken.append((source.slug, source.url, result.error))
        if progress:
            progress.advance()

    _, unchecked = LinkChecker(config).check_many(by_url, deadline=deadline, on_result=store)
    summary.unchecked = len(unchecked)
    summary.broken.sort()
    summary.seconds = time.monotonic() - started
    return summary
