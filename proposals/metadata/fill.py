"""Fill a proposal from what a reader pasted, and remember what was fetched for a day."""

import hashlib
from dataclasses import dataclass, field

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from readinglist.http import Refused

from ..identifiers import identify
from .http import FetchFailed, NotFound
from .sources import FETCHERS

# The answers a fetch fills on the form.
FILLED_ANSWERS = ("title", "authors", "year", "venue", "kind")
NOT_AN_IDENTIFIER = "Paste an arXiv id, a DOI, a GitHub repository or a web address to fill from."


@dataclass
class FillResult:
    url: str = ""
    problem: str = ""
    metadata: dict = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.problem

    @property
    def source_name(self) -> str:
        return self.metadata.get("source", "")

    def values(self) -> dict:
        return {name: self.metadata[name] for name in FILLED_ANSWERS if self.metadata.get(name)}


def _cache_key(url: str) -> str:
    return "proposals:metadata:" + hashlib.sha256(url.encode()).hexdigest()


def cached_metadata(url: str) -> dict:
    """What an earlier fill fetched for this URL, or {}: submitting never fetches again."""
    identifier = identify(url)
    return cache.get(_cache_key(identifier.url), {}) if identifier else {}


def fill_from(raw: str) -> FillResult:
    """Fetch the metadata for an arXiv id or URL, a DOI, a GitHub repository or a web page."""
    identifier = identify(raw)
    if identifier is None:
        return FillResult(problem=NOT_AN_IDENTIFIER)
    result = FillResult(url=identifier.url)
    key = _cache_key(identifier.url)
    cached = cache.get(key)
    if cached:
        result.metadata = cached
        return result
    try:
        metadata = FETCHERS[identifier.kind](identifier)
    except NotFound as exc:
        result.problem = f"{exc} Check the identifier, or fill the answers in yourself."
    except (Refused, FetchFailed) as exc:
        result.problem = f"Couldn't fetch: {exc} Fill it in yourself."
    else:
        metadata |= {
            "identifier": identifier.value,
            "url": identifier.url,
            "fetched_at": timezone.now().isoformat(timespec="seconds"),
        }
        cache.set(key, metadata, settings.METADATA_CACHE_SECONDS)
        result.metadata = metadata
    return result
