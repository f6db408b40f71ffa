"""Is a source already in the catalog or proposed, by any of its names? One check for the form,
the live check, the admin, the save page and imports, in at most four queries.

A work is found by its canonical URL, its DOI, its arXiv id in any spelling, its title, any of its
"also known as" names and any label a reading list gives it. A repository that implements a
catalogued paper is related to it, not a duplicate of it.
"""

import difflib
import re
from dataclasses import dataclass, field

from django.contrib.postgres.search import TrigramSimilarity, TrigramWordSimilarity
from django.db import connection
from django.db.models import Q
from django.db.models.functions import Greatest

from catalog.identity import NAMED_BY, WorkKeys, how_named, work_keys, work_keys_or_empty
from catalog.models import ListEntry, Source
from catalog.querysets import identity_filter, url_filter
from catalog.urlcanon import InvalidURL

from .models import Proposal

SIMILAR_TITLE_RATIO = 0.6
SHORT_NAME_LENGTH = 20
SHORT_NAME_RATIO = 0.85
TRIGRAM_THRESHOLD = 0.3
SIMILAR_TITLE_CANDIDATES = 200
SIMILAR_TITLE_LIMIT = 5
_STOP_WORDS = {"the", "and", "for", "with", "from", "into", "that", "this", "your", "what", "how"}
_SOURCE_COLUMNS = ("id", "slug", "title", "aliases", "kind", "url", "evidence_implementation_url")
_IDENTIFIERS = ("arxiv_id", "doi", "isbn", "repository")


@dataclass
class SimilarSource:
    source: Source
    reason: str
    score: float


@dataclass
class DuplicateReport:
    url: str = ""
    invalid: str = ""
    lookalike: str = ""
    source: Source | None = None
    matched_by: str = ""
    proposal: Proposal | None = None
    similar: list[SimilarSource] = field(default_factory=list)
    implements: list[Source] = field(default_factory=list)

    @property
    def is_duplicate(self) -> bool:
        return self.source is not None or self.proposal is not None


def find_duplicates(
    *, url: str = "", title: str = "", exclude_proposal: Proposal | None = None
) -> DuplicateReport:
    """Is this work already in the catalog or proposed, and which catalogued names look alike?

    `url` may be any URL or identifier (catalog.identity); a pending proposal counts as a
    duplicate by any of its keys or by its title."""
    report = DuplicateReport()
    keys = WorkKeys()
    if url:
        try:
            keys = work_keys(url)
        except InvalidURL as exc:
            report.invalid = str(exc)
        report.url = keys.url
        report.lookalike = keys.lookalike
    if keys:
        _match_by_identifiers(report, keys)
    report.proposal = _open_proposal(keys, title, exclude_proposal)
    if title:
        repository = bool(keys.repository)
        for match in similar_titles(title, exclude=report.source):
            if repository and match.source.kind != Source.Kind.REPOSITORY:
                if match.source not in report.implements:
                    report.implements.append(match.source)
            else:
                report.similar.append(match)
    return report


def _match_by_identifiers(report: DuplicateReport, keys: WorkKeys) -> None:
    """One query: the same URL, arXiv id, DOI, ISBN or repository, or a paper this repository
    implements."""
    match = identity_filter(keys) | url_filter("evidence_implementation_url", keys)
    candidates = Source.objects.filter(match).only(*_SOURCE_COLUMNS, *_IDENTIFIERS)[:20]
    named = sorted(
        (
            (NAMED_BY.index(how), source.pk, source, how)
            for source in candidates
            if (how := how_named(keys, source))
        ),
    )
    if named:
        _, _, report.source, report.matched_by = named[0]
    variants = {variant.casefold() for variant in keys.url_variants}
    for source in candidates:
        implemented = source.evidence_implementation_url.casefold() in variants
        if implemented and source != report.source and source not in report.implements:
            report.implements.append(source)


def _open_proposal(keys: WorkKeys, title: str, exclude: Proposal | None) -> Proposal | None:
    """One query: an open proposal sharing a key with this work, or with its title."""
    match = url_filter("url", keys)
    for value in (keys.arxiv, keys.doi, keys.repository, keys.openreview):
        if value:
            match |= Q(url__icontains=value)
    wanted_titles = _title_forms(title)
    if words := _significant_words(title):
        match |= Q(title__icontains=max(words, key=len))
    elif title.strip():
        match |= Q(title__iexact=title.strip())
    proposals = Proposal.objects.open().filter(match).select_related("proposer")
    if exclude is not None:
        proposals = proposals.exclude(pk=exclude.pk)
    wanted_keys = {key.casefold() for key in keys.keys}
    by_title = None
    for proposal in proposals.order_by("pk")[:50]:
        theirs = {key.casefold() for key in work_keys_or_empty(proposal.url).keys}
        if wanted_keys & theirs:
            return proposal
        if by_title is None and wanted_titles & _title_forms(proposal.title):
            by_title = proposal
    return by_title


def _title_forms(title: str) -> set[str]:
    """A title and its main title, case and punctuation ignored."""
    return {form for form in (_normal(title), _normal(_main_title(title))) if form}


def _normal(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.lower()))


def _main_title(text: str) -> str:
    """The title before its subtitle: "FlashAttention: Fast and..." names FlashAttention."""
    return re.split(r"[:\u2013\u2014]| - ", text, maxsplit=1)[0].strip()


def _significant_words(title: str) -> list[str]:
    words = re.findall(r"[\w-]+", title.lower())
    return [w for w in words if len(w) >= 4 and w not in _STOP_WORDS][:8]


def _word_filter(field_names: list[str], title: str) -> Q:
    match = Q(pk__in=[])
    for word in _significant_words(title):
        for name in field_names:
            match |= Q(**{f"{name}__icontains": word})
    return match


def _candidates(title: str) -> tuple[list[Source], list[ListEntry]]:
    """Sources (one query) and list labels (one query) that might name the same work."""
    sources = Source.objects.only(*_SOURCE_COLUMNS)
    labels = (
        ListEntry.objects.exclude(label="")
        .select_related("source")
        .only("label", *(f"source__{name}" for name in _SOURCE_COLUMNS))
    )
    source_words = _word_filter(["title", "aliases"], title)
    label_words = _word_filter(["label"], title)
    if connection.vendor == "postgresql":
        main = _main_title(title)
        sources = (
            sources.annotate(
                closeness=Greatest(
                    TrigramSimilarity("title", title),
                    TrigramSimilarity("title", main),
                    TrigramWordSimilarity(title, "aliases"),
                )
            )
            .filter(source_words | Q(closeness__gte=TRIGRAM_THRESHOLD))
            .order_by("-closeness")
        )
        labels = (
            labels.annotate(closeness=TrigramSimilarity("label", title))
            .filter(label_words | Q(closeness__gte=TRIGRAM_THRESHOLD))
            .order_by("-closeness")
        )
    else:
        sources, labels = sources.filter(source_words), labels.filter(label_words)
    return list(sources[:SIMILAR_TITLE_CANDIDATES]), list(labels[:SIMILAR_TITLE_CANDIDATES])


def _names(source: Source, labels: list[str]) -> list[tuple[str, str]]:
    """(name, how the report describes a match on it)."""
    names = [(source.title, "same title")]
    names += [(alias, f"also known as “{alias}”") for alias in source.alias_list]
    names += [(label, f"listed as “{label}”") for label in labels]
    return names


def _score(wanted: str, source: Source, labels: list[str]) -> tuple[float, str]:
    wanted_main = _normal(_main_title(wanted))
    wanted = _normal(wanted)
    best = (0.0, "")
    for name, reason in _names(source, labels):
        normal = _normal(name)
        if not normal:
            continue
        if normal in (wanted, wanted_main) or _normal(_main_title(name)) == wanted:
            return 1.0, reason
        ratio = difflib.SequenceMatcher(None, wanted, normal).ratio()
        # Short names share most letters by chance ("FlashAttention", "PagedAttention").
        short = min(len(wanted), len(normal)) < SHORT_NAME_LENGTH
        if short and ratio < SHORT_NAME_RATIO:
            continue
        if ratio > best[0]:
            best = (ratio, "similar title" if reason == "same title" else f"similar to {reason}")
    return best


def similar_titles(title: str, *, exclude: Source | None = None) -> list[SimilarSource]:
    """Catalogued sources one of whose names (title, aliases, list labels) looks like this
    title, best first: two queries for candidates, then one ranking on every backend."""
    if not title.strip():
        return []
    sources, entries = _candidates(title)
    by_pk = {source.pk: source for source in sources}
    labels: dict[int, list[str]] = {}
    for entry in entries:
        by_pk.setdefault(entry.source.pk, entry.source)
        labels.setdefault(entry.source.pk, []).append(entry.label)
    scored = []
    for pk, source in by_pk.items():
        if exclude is not None and pk == exclude.pk:
            continue
        score, reason = _score(title, source, labels.get(pk, []))
        if score >= SIMILAR_TITLE_RATIO:
            scored.append(SimilarSource(source, reason, score))
    scored.sort(key=lambda match: (-match.score, match.source.title))
    return scored[:SIMILAR_TITLE_LIMIT]
