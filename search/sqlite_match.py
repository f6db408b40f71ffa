"""The match stage on databases without full-text search (SQLite): every word required, in
the title, authors, aliases, venue, summary, keywords or a topic name; `-word` excludes and
`or` widens. When that match is thin, every source with some of the words is scored in Python
(sqlite_described.py) and added."""

from dataclasses import dataclass

from django.db.models import Q

from catalog.models import Source, Topic
from catalog.querysets import SourceQuerySet

from .described import STOP_WORDS
from .equivalents import alternatives
from .names import named_sources
from .parsing import ParsedQuery, SearchParams
from .shared import Matched, narrowed
from .sqlite_described import contains_word, described_scores, searched_prefix

FIELDS = ("title", "authors", "aliases", "venue", "summary", "keywords")
# Words this short are whole tokens (or their plural) rather than parts of longer words.
SHORT_WORD = 3


@dataclass(frozen=True)
class ContainsMatched(Matched):
    """The query as SQLite searches it."""

    # ((source id, fused score), ...): the any-word matches, scored in Python, when the
    # all-words match is thin.
    described: tuple[tuple[int, float], ...] = ()


def contains(text: str, *, whole: bool = False) -> Q:
    """A source with `text` in a field or a topic name: a phrase as written, a word that is a
    format or a chip as a whole token."""
    condition, in_topic_name = Q(), Q(topic__name__icontains=text)
    if " " in text:
        for name in FIELDS:
            condition |= Q(**{f"{name}__icontains": text})
    else:
        condition = contains_word(FIELDS, text, whole=whole)
        in_topic_name = contains_word(("topic__name",), text, whole=whole)
    topics = Source.topics.through.objects.filter(in_topic_name)
    return condition | Q(pk__in=topics.values("source_id"))


def contains_any(word: str, forms: tuple[str, ...]) -> Q:
    """`word` or a form equivalent to it (equivalents.py); a phrase form as written or
    hyphenated ("key value", "key-value"). A word of three letters or fewer is a whole token,
    as PostgreSQL reads it: "rag" is not the one in "outrageously", nor "sm" in "small"."""
    # Other forms of the word count, as PostgreSQL's stemming reads them: the start it shares
    # with its stem ("cores" finds "core", "warps" "warp").
    searched = word if len(word) <= SHORT_WORD else searched_prefix(word)
    if len(searched) <= SHORT_WORD:
        # Too short a start to search by ("paging" and its stem "page" share only "pag"): the
        # word as typed, anywhere, as before stems were read.
        searched = word
    condition = contains(searched, whole=len(searched) <= SHORT_WORD)
    for form in forms:
        if " " in form:
            condition |= contains(form) | contains(form.replace(" ", "-"))
        else:
            condition |= contains(form, whole=True)
    return condition


def all_words(sources: SourceQuerySet, query: ParsedQuery, *, forms: bool = True) -> SourceQuerySet:
    """The sources with every subject word (or a form of it, with `forms`), or any with `or`."""
    equivalent: dict[str, tuple[str, ...]] = (
        {} if query.uses_operators or not forms else alternatives(query.subject)
    )
    groups = [contains_any(word, equivalent.get(word, ())) for word in query.subject]
    groups += [contains(text) for text in query.phrases]
    if query.any_of:
        # As websearch reads `or`: the words and phrases it joins are alternatives, each
        # group of them required, stop words ignored.
        groups = []
        for joined in query.any_of_groups:
            condition = Q()
            for text in (t for t in joined if t not in STOP_WORDS):
                condition |= contains(text)
            groups += [condition] if condition else []
    for group in groups:
        sources = sources.filter(group)
    for text in query.excluded:
        sources = sources.exclude(contains(text))
    return sources


def in_topic(topic: Topic) -> Q:
    # A subquery, not a join: joins would repeat rows and break the facet counts.
    tagged = Source.topics.through.objects.filter(Q(topic=topic) | Q(topic__parent=topic))
    return Q(pk__in=tagged.values("source_id"))


def matched(params: SearchParams, identified: tuple[int, ...], using: str) -> ContainsMatched:
    """The published sources the page shows, before ordering."""
    query = params.query
    sources = narrowed(Source.objects.using(using).published(), params, in_topic=in_topic)
    if not query:
        return ContainsMatched(query=query, rows=sources, identified=identified)
    found: dict = {}
    if query.may_widen:
        named = named_sources(query.names, using, parts=query.name_parts)
        published = Source.objects.using(using).published()
        complete, scores = described_scores(
            published, query.meaningful, all_words(published, query), query.stems
        )
        # "hf transformers": the source all but one word names leads the partial matches when
        # no source has every word.
        leading = named.levels or (named.in_part if scores and not complete else {})
        found = {
            "named": tuple(leading.items()),
            "named_in_part": tuple(named.in_part.items()),
            "partial": bool(scores),
            "complete": complete,
            "described": tuple(scores.items()),
        }
    rows = all_words(sources, query)
    if found.get("described"):
        # "flash attention hopper" found FlashAttention-3: FlashAttention without the word
        # that narrowed it is what the reader refined away.
        refined = {pk for pk, _ in found["named_in_part"]} if found["complete"] else set()
        widened = Q(pk__in=[pk for pk, _ in found["described"] if pk not in refined])
        rows = sources.filter(Q(pk__in=rows.values("pk")) | widened)
    if found.get("named"):
        # A name that is not in the text (an acronym of the title) still finds its source.
        named_rows = sources.filter(pk__in=[pk for pk, _ in found["named"]])
        rows = sources.filter(Q(pk__in=rows.values("pk")) | Q(pk__in=named_rows.values("pk")))
    return ContainsMatched(query=query, rows=rows, identified=identified, **found)
