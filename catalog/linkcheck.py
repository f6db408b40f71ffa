"""Link health: check source URLs politely, in bounded time, and record what was found.

A check never downloads a whole page (HEAD first; GET reads at most `max_bytes`), follows at most
`max_redirects` redirects and notices loops, retries 5xx answers and timeouts with backoff, and
never takes longer than `url_deadline` seconds per URL. At most `per_host` requests run against
one host at a time. A host on the blocking list that answers 403/429 refuses robots, which says
nothing about whether the page exists: it is "blocked", not "broken". Every request goes through
the project's outbound policy (readinglist/http.py): the address check on every hop, the total
deadline, the process's concurrency cap.
"""

import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from datetime import datetime
from urllib.parse import urljoin, urlsplit

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from readinglist import http as outbound
from readinglist.outage import OutageWatch

from .models import Source
from .progress import Progress

OK, BROKEN, BLOCKED = Source.LinkStatus.OK, Source.LinkStatus.BROKEN, Source.LinkStatus.BLOCKED
REDIRECTS = {301, 302, 303, 307, 308}
ROBOT_REFUSALS = {403, 429}


def user_agent() -> str:
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
    blocking_hosts: tuple[str, ...] = ()
    ca_certs: str | None = None


@dataclass
class LinkResult:
    url: str
    status: str
    code: int | None = None
    error: str = ""
    final_url: str = ""
    attempts: int = 1
    # No answer came back at all (no such host, no connection, no reply in time): on its own it
    # says as much about this machine's network as about the link.
    network: bool = False

    @property
    def retryable(self) -> bool:
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
    def __init__(self, config: CheckConfig | None = None) -> None:
        self.config = config or CheckConfig()
        self._slots: defaultdict[str, threading.BoundedSemaphore] = defaultdict(
            lambda: threading.BoundedSemaphore(self.config.per_host)
        )
        self._slots_lock = threading.Lock()

    def _slot(self, host: str) -> threading.BoundedSemaphore:
        with self._slots_lock:
            return self._slots[host]

    def is_blocking_host(self, url: str) -> bool:
        host = (urlsplit(url).hostname or "").lower()
        return any(
            host == listed or host.endswith("." + listed) for listed in self.config.blocking_hosts
        )

    # One URL.

    def check(self, url: str) -> LinkResult:
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

    def _check_once(self, url: str, deadline: float) -> LinkResult:
        seen: set[str] = set()
        current = url
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
            return LinkResult(url, BROKEN, error=str(exc), final_url=current, network=True)
        except outbound.TLSFailed as exc:
            return LinkResult(url, BROKEN, error=f"TLS error: {exc}", final_url=current)
        except (outbound.HostNotFound, outbound.Unreachable) as exc:
            return LinkResult(url, BROKEN, error=f"Cannot connect: {exc}", network=True)
        except outbound.Refused as exc:
            return LinkResult(url, BROKEN, error=f"Not checked: {exc}")
        except outbound.FetchFailed as exc:
            return LinkResult(url, BROKEN, error=f"Connection failed: {exc}", final_url=current)
        except Exception as exc:
            # One odd answer must not stop a run over the whole catalog.
            return LinkResult(url, BROKEN, error=f"Check failed: {type(exc).__name__}")

    def _judge(self, url: str, code: int, final_url: str) -> LinkResult:
        if 200 <= code < 400:
            return LinkResult(url, OK, code=code, final_url=final_url)
        if code in ROBOT_REFUSALS and self.is_blocking_host(final_url):
            return LinkResult(url, BLOCKED, code=code, error=f"HTTP {code} (host refuses robots)")
        return LinkResult(url, BROKEN, code=code, error=f"HTTP {code}", final_url=final_url)

    def _request(self, method: str, url: str, deadline: float) -> _Hop:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise _Retryable("Timed out (deadline)")
        host = urlsplit(url).netloc.lower()
        with self._slot(host):
            try:
                answer = outbound.fetch(
                    url,
                    method=method,
                    # HEAD reads no body; GET reads at most max_bytes and hangs up.
                    max_bytes=self.config.max_bytes,
                    deadline=min(remaining, self.config.connect_timeout + self.config.read_timeout),
                    headers={"User-Agent": user_agent()},
                    max_redirects=0,
                    # A batch job, not a web request: it may wait for a free slot.
                    wait_for_slot=remaining,
                    ca_file=self.config.ca_certs,
                )
            except (outbound.TimedOut, outbound.Busy) as exc:
                raise _Retryable("Timed out") from exc
        return _Hop(answer.status, answer.location)

    # Many URLs.

    def check_many(
        self,
        urls: Iterable[str],
        *,
        deadline: float | None = None,
        on_result: Callable[[LinkResult], None] | None = None,
    ) -> tuple[dict[str, LinkResult], list[str]]:
        """Check URLs concurrently. Stops waiting at `deadline` seconds (if given): URLs not done
        by then are returned as unchecked, and nothing waits on them."""
        results: dict[str, LinkResult] = {}
        urls = list(dict.fromkeys(urls))
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


@dataclass
class CheckSummary:
    counts: Counter[str] = field(default_factory=Counter)
    broken: list[tuple[str, str, str]] = field(default_factory=list)
    unchecked: int = 0
    seconds: float = 0.0
    # Every check failed for want of a network (no host resolved, none connected or answered):
    # nothing was recorded, since it says nothing about the links.
    offline: bool = False
    network_failures: int = 0
    example_error: str = ""

    def lines(self) -> Iterator[str]:
        if self.offline:
            yield (
                f"No link could be checked: all {self.network_failures} failed without an answer "
                f"from any host (for example “{self.example_error}”). Is this machine offline? "
                "Nothing was recorded."
            )
            return
        checked = sum(self.counts.values())
        yield (
            f"Checked {checked} link{'s' if checked != 1 else ''} in {self.seconds:.1f} s: "
            f"{self.counts[OK]} ok, {self.counts[BROKEN]} broken, {self.counts[BLOCKED]} blocked"
            + (f", {self.unchecked} not checked (deadline reached)" if self.unchecked else "")
        )
        for slug, url, error in self.broken:
            yield f"  broken: {slug} ({url}): {error}"


def record_result(source: Source, result: LinkResult, now: datetime | None = None) -> None:
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


def check_sources(
    sources: Iterable[Source],
    *,
    config: CheckConfig,
    deadline: float | None = None,
    progress: Progress | None = None,
) -> CheckSummary:
    """Check the sources' URLs and record each result as it arrives (in this thread, so the
    database is only touched from one connection). Returns a CheckSummary.

    Results wait unrecorded until some host has answered: a run in which none ever does (no
    network, no DNS) records nothing and comes back `offline`, instead of marking the whole
    catalog broken. Once one host answered, a failure is the link's own and is recorded."""
    started = time.monotonic()
    by_url = {source.url: source for source in sources if source.url}
    summary = CheckSummary()

    def store(result: LinkResult) -> None:
        source = by_url[result.url]
        record_result(source, result)
        summary.counts[result.status] += 1
        if result.status == BROKEN:
            summary.broken.append((source.slug, source.url, result.error))

    watch = OutageWatch(store)

    def arrived(result: LinkResult) -> None:
        if progress:
            progress.advance()
        watch.arrived(result, reached=not result.network)

    _, unchecked = LinkChecker(config).check_many(by_url, deadline=deadline, on_result=arrived)
    if watch.offline:
        summary.offline = True
        summary.network_failures = len(watch.held)
        summary.example_error = watch.held[0].error
    summary.unchecked = len(unchecked)
    summary.broken.sort()
    summary.seconds = time.monotonic() - started
    return summary
