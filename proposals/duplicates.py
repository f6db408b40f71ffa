"""Is a source already in the catalog or proposed? One check for the form, the live check and the
admin, in at most three queries whatever the catalog size."""

import difflib
import re
from dataclasses import dataclass, field

from django.db.models import Q

from catalog.models import Source
from catalog.urlcanon import InvalidURL, canonical_url

from .models import Proposal

SIMILAR_TITLE_RATIO = 0.6
SIMILAR_TITLE_CANDIDATES = 200
SIMILAR_TITLE_LIMIT = 5
_STOP_WORDS = {"the", "and", "for", "with", "from", "into", "that", "this", "your", "what", "how"}


@dataclass
class DuplicateReport:
    url: str = ""
    invalid: str = ""
    source: Source | None = None
    proposal: Proposal | None = None
    similar: list[Source] = field(default_factory=list)

    @property
    def is_duplicate(self) -> bool:
        return self.source is not None or self.proposal is not None


def find_duplicates(
    *, url: str = "", title: str = "", exclude_proposal: Proposal | None = None
) -> DuplicateReport:
    """Is this URL already in the catalog or proposed, and which titles look alike?

    Runs at most three queries whatever the catalog size.
    """
    report = DuplicateReport()
    if url:
        try:
            report.url = canonical_url(url)
        except InvalidURL as exc:
            report.invalid = str(exc)
    if report.url:
        report.source = Source.objects.filter(url=report.url).first()
        proposals = Proposal.objects.open().filter(url=report.url).select_related("proposer")
        if exclude_proposal is not None:
            proposals = proposals.exclude(pk=exclude_proposal.pk)
        report.proposal = proposals.first()
    if title:
        report.similar = similar_titles(title, exclude=report.source)
    return report


def _significant_words(title):
    words = re.findall(r"[\w-]+", title.lower())
    return [w for w in words if len(w) >= 3 and w not in _STOP_WORDS][:8]


def similar_titles(title: str, *, exclude: Source | None = None) -> list[Source]:
    """Sources whose titles look like this one: one query for candidates sharing a word, then
    difflib ranks them (works the same on SQLite and PostgreSQL)."""
    words = _significant_words(title)
    if not words:
        return []
    match = Q()
    for word in words:
        match |= Q(title__icontains=word)
    candidates = Source.objects.filter(match).only("pk", "slug", "title")
    if exclude is not None:
        candidates = candidates.exclude(pk=exclude.pk)
    wanted = title.lower()
    scored = []
    for source in candidates[:SIMILAR_TITLE_CANDIDATES]:
        ratio = difflib.SequenceMatcher(None, wanted, source.title.lower()).ratio()
        if ratio >= SIMILAR_TITLE_RATIO:
            scored.append((ratio, source))
    scored.sort(key=lambda pair: (-pair[0], pair[1].title))
    return [source for _, source in scored[:SIMILAR_TITLE_LIMIT]]
