"""The collectors: arXiv's API, the releases of catalogued repositories, and configured feeds.

Every fetch goes through the project's outbound policy (readinglist.http: SSRF guard, deadline,
polite User-Agent) with conditional GETs from the feed's last answer. A failing feed is recorded
on its FeedState and skipped; it never stops the others or loses what was already stored.
"""

import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from urllib.parse import urlencode, urlsplit

from django.conf import settings
from django.utils import timezone

from catalog.identity import work_keys_or_empty
from catalog.models import Source, Topic
from readinglist import http

from .entries import Entry, FeedError, parse_feed
from .models import FeedState

FIRST_RUN_LOOKBACK = timedelta(days=7)
PAGE_SIZE = 200
MAX_PAGES = 25
FEED_MAX_BYTES = 20 * 1024 * 1024
FEED_DEADLINE_SECONDS = 30.0
# Topics too broad to narrow arXiv's machine-learning listings to this catalog's field.
BROAD_TOPICS = {"fundamentals", "model-architectures", "operations", "benchmarks", "hardware"}


@dataclass
class Fetch:
    """One feed's outcome: entries read, or why none were."""

    name: str
    url: str
    state_url: str = ""
    entries: list[Entry] = field(default_factory=list)
    # Why each entry that could not be used was skipped; the feed's other entries still count.
    skipped: list[str] = field(default_factory=list)
    error: str = ""
    network_error: bool = False
    unchanged: bool = False


def fetch_feed(name: str, url: str, *, now: datetime, state_url: str = "") -> Fetch:
    """Fetch and read one feed, remembering its validators and outcome on its FeedState."""
    state, _ = FeedState.objects.get_or_create(url=(state_url or url)[:2000])
    outcome = Fetch(name=name, url=url, state_url=state.url)
    try:
        answer = http.fetch(
            url,
            max_bytes=FEED_MAX_BYTES,
            deadline=FEED_DEADLINE_SECONDS,
            etag=state.etag,
            last_modified=state.last_modified,
            wait_for_slot=FEED_DEADLINE_SECONDS,
            headers={"Accept": "application/atom+xml, application/rss+xml, application/xml"},
        )
        if answer.status == 304:
            outcome.unchanged = True
        elif answer.status != 200:
            raise FeedError(f"{name} answered {answer.status}.")
        else:
            parsed = parse_feed(answer.body, name=name)
            outcome.entries, outcome.skipped = parsed.entries, parsed.skipped
            state.etag, state.last_modified = answer.etag[:500], answer.last_modified[:100]
            state.skipped_entries = len(parsed.skipped)
    except (http.OutboundError, FeedError) as exc:
        outcome.error = str(exc)
        if isinstance(exc, http.Slow):
            host = urlsplit(url).hostname or url
            outcome.error = (
                f"{host} is slow: it answered, but not within {FEED_DEADLINE_SECONDS:g} s."
            )
        outcome.network_error = http.reached_no_host(exc)
    state.last_checked = now
    if not outcome.network_error:
        # An answer from no host at all may be this machine's outage: the run records it once
        # it knows (readinglist.outage), so an outage is never kept as the feed's error.
        state.last_error = outcome.error
    state.save()
    return outcome


def held_back(outcome: Fetch, count: int) -> None:
    """Count what the per-feed cap left for later runs; while anything waits, the next run
    reads the whole feed again (no validators), since a 304 would hide what is left."""
    changes: dict[str, object] = {"held_back_entries": count}
    if count:
        changes |= {"etag": "", "last_modified": ""}
    FeedState.objects.filter(url=outcome.state_url or outcome.url[:2000]).update(**changes)


def record_error(outcome: Fetch, error: str) -> None:
    """A feed read well whose entries could not be stored: its error, for the admin."""
    outcome.error = error
    FeedState.objects.filter(url=outcome.state_url or outcome.url[:2000]).update(last_error=error)


def mark_success(url: str, now: datetime) -> None:
    FeedState.objects.filter(url=url[:2000]).update(last_success=now)


def since_last_success(url: str, now: datetime) -> datetime:
    last = FeedState.objects.filter(url=url[:2000]).values_list("last_success", flat=True).first()
    return last or now - FIRST_RUN_LOOKBACK


# arXiv


def arxiv_query() -> str:
    """The configured query, or one built from the catalog: the systems and architecture
    categories whole, and machine learning where it names one of the catalog's topics."""
    if settings.CANDIDATES_ARXIV_QUERY:
        return settings.CANDIDATES_ARXIV_QUERY
    whole = " OR ".join(f"cat:{c}" for c in settings.CANDIDATES_ARXIV_CATEGORIES)
    slugs = Topic.objects.exclude(slug__in=BROAD_TOPICS).values_list("slug", flat=True)
    phrases = [
        '"LLM inference"',
        '"LLM serving"',
        "GPU",
        *(f'"{s.replace("-", " ")}"' for s in slugs),
    ]
    narrowed = " OR ".join(f"abs:{phrase}" for phrase in phrases)
    learning = " OR ".join(f"cat:{c}" for c in settings.CANDIDATES_ARXIV_NARROWED_CATEGORIES)
    return f"({whole}) OR (({learning}) AND ({narrowed}))"


def arxiv_page_url(query: str, start: int) -> str:
    params = {
        "search_query": query,
        "sortBy": "submittedDate",
        "sortOrder": "descending",
        "start": start,
        "max_results": PAGE_SIZE,
    }
    return f"{settings.ARXIV_API_URL}?{urlencode(params)}"


def arxiv_pages(
    *, since: datetime, now: datetime, sleep: Callable[[float], None] = time.sleep
) -> Iterator[Fetch]:
    """Pages of the newest submissions until one reaches back past `since`, at most one
    request every CANDIDATES_ARXIV_DELAY seconds, as arXiv's API terms ask."""
    query = arxiv_query()
    for page in range(MAX_PAGES):
        if page:
            sleep(settings.CANDIDATES_ARXIV_DELAY)
        url = arxiv_page_url(query, page * PAGE_SIZE)
        # Conditional GETs would compare pages whose contents shift daily: key the state on
        # the query, and send no validators for later pages.
        outcome = fetch_feed("arXiv", url, now=now, state_url=url if page else "")
        outcome.entries = [
            e for e in outcome.entries if e.published is None or e.published >= since
        ]
        yield outcome
        if outcome.error or outcome.unchanged or len(outcome.entries) < PAGE_SIZE:
            return


# Releases of catalogued repositories

_VERSION = re.compile(r"(?<![\w.])v?(?P<major>\d+)\.(?P<minor>\d+)(?:\.\d+)?")


def major_minor(title: str) -> tuple[int, int] | None:
    found = _VERSION.search(title)
    return (int(found["major"]), int(found["minor"])) if found else None


def repositories() -> list[tuple[Source, str]]:
    """Published sources that are GitHub repositories, with their owner/name."""
    found = []
    for source in Source.objects.published().order_by("pk"):
        name = source.repository or work_keys_or_empty(source.url).repository
        if name:
            found.append((source, name))
    return found


def releases_url(repository: str) -> str:
    return f"{settings.CANDIDATES_GITHUB_URL.rstrip('/')}/{repository}/releases.atom"


def configured_feeds() -> list[tuple[str, str]]:
    """(name, url) of every configured blog or change-log feed."""
    feeds = []
    for item in settings.CANDIDATES_FEEDS:
        name, _, url = item.partition("=")
        if "://" in name or not url:  # no name given: the URL names itself
            name, url = "", item
        feeds.append((name.strip() or url.strip(), url.strip()))
    return feeds


def utcnow() -> datetime:
    return timezone.now()
