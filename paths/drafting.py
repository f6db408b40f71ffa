"""A reading path drafted from a described learning goal, each step saying why it was picked.

1. **Candidates**: what search finds for the goal (its public `matching_sources`), in its order,
   less those that match only the goal's common words ("serve", "model": `focused`) or sit
   outside the topics most of search's first results share (`on_topic`).
2. **What comes first**: the Start-here sources search ranks high lead; a candidate brings in
   the sources the catalog links to it that come before it, when search found those too.
3. **Order**: tiers (Start here, core, frontier, further reading), then the primary-source
   path's order (from one request's cost down to a GPU and up to distributed serving), then
   year; never a source before a linked one that comes first, or before what it supersedes.
4. **Sections**: runs of steps that share a topic, a few at most, titled with the topic.

Reasons come from what the catalog holds (the path, its sections, links, years, which of the
goal's words a source's text has). Queries: search's own and four here, whatever the goal.
"""

import math
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from django.db.models import Q, Subquery

from catalog.models import ListEntry, ReadingList, Source, Tier
from search.page import matching_sources
from search.parsing import SearchParams, clean_query_text

from .goal_words import WORD, goal_terms, stemmed

# How many of search's results are candidates.
CANDIDATES = 30
# A candidate is kept when its goal words weigh at least FOCUS of the mean of the best TOP.
FOCUS, TOP = 0.3, 3
# The goal's topics: those with at least ON_TOPIC of the best topic's votes among search's first
# VOTERS candidates; search's first ALWAYS candidates are kept whatever their topics.
ON_TOPIC, VOTERS, ALWAYS = 0.5, 10, 3
# Start-here sources lead the draft when search ranks them among the first LEADING candidates.
LEADING, MAX_START_HERE = 8, 3
MAX_SECTIONS = 4
# A draft of fewer steps says the catalog has little for the goal.
LITTLE = 5
START_HERE_SECTION = "start-here"
START_HERE_TITLE = "Start here"
TIER_ORDER = {Tier.START_HERE: 0, Tier.CORE: 1, Tier.FRONTIER: 2, Tier.FURTHER_READING: 3}
OFF_PATH = 10_000


@dataclass(frozen=True)
class DraftStep:
    source: Source
    reason: str


@dataclass(frozen=True)
class DraftSection:
    title: str
    steps: list[DraftStep]


@dataclass(frozen=True)
class PathDraft:
    goal: str
    sections: list[DraftSection]
    notice: str | None

    @property
    def steps(self) -> list[DraftStep]:
        return [step for section in self.sections for step in section.steps]


@dataclass(frozen=True)
class Placement:
    """Where a source sits on the primary-source path."""

    section_id: int
    section_position: int
    section_title: str
    entry_position: int
    start_here: bool


@dataclass
class CatalogFacts:
    """What the catalog holds about the candidates and the sources linked to them."""

    sources: dict[int, Source] = field(default_factory=dict)
    placement: dict[int, Placement] = field(default_factory=dict)
    related: defaultdict[int, set[int]] = field(default_factory=lambda: defaultdict(set))
    # Each source's topics as (id, name, position), and with their parents ("KV cache" is part
    # of "Serving engines and scheduling"), for telling whether two sources share a subject.
    topics: dict[int, list[tuple[int, str, int]]] = field(default_factory=dict)
    families: defaultdict[int, set[int]] = field(default_factory=lambda: defaultdict(set))


def draft_path(goal: str, *, limit: int = 12) -> PathDraft:
    """A draft path for `goal` of at most `limit` steps, ordered from fundamentals to advanced;
    `notice` says when the catalog has little or nothing for it."""
    text, _ = clean_query_text(goal)
    if not text:
        return PathDraft(goal, [], "Describe what you want to learn, in a few words.")
    candidates = matching_sources(SearchParams(q=text), limit=CANDIDATES)
    if not candidates:
        return PathDraft(goal, [], notice_for(text, 0))
    facts = read_facts(candidates)
    terms = goal_terms(text)
    matched = {pk: words_found(terms, facts, pk) for pk in facts.sources}
    leading = on_topic(focused(candidates, matched), facts)
    found = {source.pk for source in candidates}
    chosen, needed_by = choose(leading, found, facts, max(limit, 1))
    ordered = in_learning_order(chosen, facts)
    steps = [DraftStep(facts.sources[pk], reason(pk, facts, matched, needed_by)) for pk in ordered]
    return PathDraft(goal, grouped(steps, facts), notice_for(text, len(steps)))


def notice_for(text: str, count: int) -> str | None:
    if not count:
        return (
            f"The catalog has nothing on “{text}” yet. Try other words for it, or propose the "
            "sources you would read."
        )
    if count >= LITTLE:
        return None
    sources = "1 source is" if count == 1 else f"{count} sources are"
    return (
        f"The catalog has little on “{text}”: only {sources} close to it. Add what you would "
        "read, or propose it to the catalog."
    )


def read_facts(candidates: list[Source]) -> CatalogFacts:
    """The candidates' places on the primary-source path, their links and the topics of both:
    four queries."""
    facts = CatalogFacts(sources={source.pk: source for source in candidates})
    ids = list(facts.sources)
    primary = ReadingList.objects.order_by("position", "title").values("pk")[:1]
    entries = (
        ListEntry.objects.filter(section__reading_list=Subquery(primary))
        .filter(Q(source__in=ids) | Q(source__related__in=ids))
        .select_related("section")
        .order_by("section__position", "position")
        .distinct()
    )
    for entry in entries:
        section = entry.section
        start_here = section.slug == START_HERE_SECTION
        place = Placement(section.pk, section.position, section.title, entry.position, start_here)
        facts.placement.setdefault(entry.source_id, place)
    links = Source.related.through.objects.filter(from_source__in=ids)
    for from_id, to_id in links.values_list("from_source_id", "to_source_id"):
        facts.related[from_id].add(to_id)
        facts.related[to_id].add(from_id)
    linked = set(facts.related) - set(ids)
    for source in Source.objects.published().for_cards().filter(pk__in=linked):
        facts.sources[source.pk] = source
    topics = Source.topics.through.objects.filter(source__in=list(facts.sources))
    rows = topics.values_list(
        "source_id", "topic_id", "topic__name", "topic__position", "topic__parent_id"
    ).order_by("topic__position", "topic__name")
    for source_id, topic_id, name, position, parent_id in rows:
        facts.topics.setdefault(source_id, []).append((topic_id, name, position))
        facts.families[source_id] |= {topic_id, parent_id or topic_id}
    return facts


def words_found(terms: dict[str, str], facts: CatalogFacts, pk: int) -> list[str]:
    """The goal's words a source's title, aliases, summary, keywords or topics have."""
    source = facts.sources[pk]
    names = [name for _, name, _ in facts.topics.get(pk, [])]
    text = " ".join([source.title, source.aliases, source.summary, source.keywords, *names])
    stems = {stemmed(word) for word in WORD.findall(text.lower())}
    return [word for stem, word in terms.items() if stem in stems]


def focused(candidates: list[Source], matched: dict[int, list[str]]) -> list[Source]:
    """The candidates whose goal words weigh at least FOCUS of the mean of the best TOP, each
    word weighted by how few candidates have it (the rarer, the more it says what the goal is
    about)."""
    have = Counter(word for source in candidates for word in matched[source.pk])
    count = len(candidates)
    weight = {word: math.log((count + 1) / (n + 0.5)) for word, n in have.items()}
    score = {s.pk: sum(weight[word] for word in matched[s.pk]) for s in candidates}
    best = sorted(score.values(), reverse=True)[:TOP]
    bar = FOCUS * sum(best) / len(best)
    return [source for source in candidates if score[source.pk] >= bar]


def on_topic(leading: list[Source], facts: CatalogFacts) -> list[Source]:
    """The candidates in the goal's topics: those most of search's first candidates have (a
    topic's parent counting as theirs too), a vote counting more the higher search ranks it."""
    votes: defaultdict[int, float] = defaultdict(float)
    for rank, source in enumerate(leading[:VOTERS]):
        for topic in facts.families[source.pk]:
            votes[topic] += 1 / (1 + rank / 5)
    best = max(votes.values(), default=0.0)
    goal_topics = {topic for topic, vote in votes.items() if vote >= ON_TOPIC * best}
    return [
        source
        for rank, source in enumerate(leading)
        if rank < ALWAYS or {topic for topic, _, _ in facts.topics.get(source.pk, [])} & goal_topics
    ]


def tier_rank(pk: int, facts: CatalogFacts) -> int:
    return TIER_ORDER.get(facts.sources[pk].tier.slug, len(TIER_ORDER))


def comes_first(first: int, then: int, facts: CatalogFacts) -> bool:
    """Whether the catalog puts `first` before `then`, two sources it links: in the order of the
    section of the primary-source path they share (the curators' reading order), else the older
    one first. Never a source of a later tier before one of an earlier tier (the Start-here
    sources lead)."""
    if tier_rank(first, facts) > tier_rank(then, facts):
        return False
    here, there = facts.placement.get(first), facts.placement.get(then)
    if here and there and here.section_id == there.section_id:
        return here.entry_position < there.entry_position
    a, b = facts.sources[first].year, facts.sources[then].year
    return bool(a and b and a < b)


def linked_first(pk: int, facts: CatalogFacts) -> list[int]:
    """The sources the catalog links to `pk` that come first, oldest first."""
    linked = [other for other in facts.related[pk] if other in facts.sources]
    return sorted(
        (other for other in linked if comes_first(other, pk, facts)),
        key=lambda other: learning_key(other, facts),
    )


def choose(
    leading: list[Source], found: set[int], facts: CatalogFacts, limit: int
) -> tuple[list[int], dict[int, int]]:
    """The draft's sources: the Start-here sources search ranks high, then each leading
    candidate in search's order after the linked sources that come first and that search found
    too, until the draft is full. `needed_by` says which step brought one of those in."""
    start_here = [s.pk for s in leading[:LEADING] if is_start_here(s.pk, facts)]
    chosen = start_here[: min(MAX_START_HERE, limit)]
    needed_by: dict[int, int] = {}
    for source in leading:
        if len(chosen) >= limit:
            break
        if source.pk in chosen:
            continue
        missing = [pk for pk in linked_first(source.pk, facts) if pk in found - set(chosen)]
        for pk in missing[: limit - len(chosen) - 1]:
            chosen.append(pk)
            needed_by[pk] = source.pk
        chosen.append(source.pk)
    return chosen, needed_by


def is_start_here(pk: int, facts: CatalogFacts) -> bool:
    place = facts.placement.get(pk)
    return bool(place and place.start_here)


def learning_key(pk: int, facts: CatalogFacts) -> tuple[int, int, int, int, str]:
    source = facts.sources[pk]
    place = facts.placement.get(pk)
    return (
        tier_rank(pk, facts),
        place.section_position if place else OFF_PATH,
        place.entry_position if place else 0,
        source.year or OFF_PATH,
        source.title.casefold(),
    )


def in_learning_order(chosen: list[int], facts: CatalogFacts) -> list[int]:
    """The chosen sources by learning_key, none before a linked source that comes first or a
    source it supersedes."""
    members = set(chosen)
    after = {pk: {o for o in linked_first(pk, facts) if o in members} for pk in chosen}
    for pk in chosen:
        if (newer := facts.sources[pk].replaced_by_id) in members:
            after[newer].add(pk)
    remaining = sorted(chosen, key=lambda pk: learning_key(pk, facts))
    ordered: list[int] = []
    while remaining:
        placed = set(ordered)
        ready = [pk for pk in remaining if after[pk] <= placed]
        # Two sources superseding each other cannot stall the draft.
        pick = ready[0] if ready else remaining[0]
        ordered.append(pick)
        remaining.remove(pick)
    return ordered


def reason(
    pk: int, facts: CatalogFacts, matched: dict[int, list[str]], needed_by: dict[int, int]
) -> str:
    """Why a step is in the draft, from what the catalog holds about it."""
    parts = []
    place = facts.placement.get(pk)
    if place and place.start_here:
        parts.append(f"Start-here path, step {place.entry_position}")
    elif place:
        parts.append(f"Primary-source path, section “{place.section_title}”")
    elif topics := facts.topics.get(pk):
        parts.append(f"Topic “{topics[0][1]}”")
    if pk in needed_by:
        later = facts.sources[needed_by[pk]].title
        parts.append(f"read before {later}, which the catalog links to it")
    if (newer := facts.sources[pk].replaced_by_id) in facts.sources:
        parts.append(f"superseded by {facts.sources[newer].title}")
    if words := matched.get(pk):
        parts.append("matches " + ", ".join(f"“{word}”" for word in words))
    text = "; ".join(parts) or "Found by search for the goal"
    return text[0].upper() + text[1:]


def section_titles(steps: list[DraftStep], facts: CatalogFacts) -> list[str]:
    """Each step's title: Start here, or the topic it shares with most steps of the draft."""
    shared = Counter(topic for step in steps for topic in facts.topics.get(step.source.pk, []))
    titles = []
    for step in steps:
        topics = facts.topics.get(step.source.pk, [])
        if is_start_here(step.source.pk, facts):
            titles.append(START_HERE_TITLE)
        elif topics:
            titles.append(max(topics, key=lambda t: (shared[t], -t[2]))[1])
        else:
            titles.append(step.source.tier.name)
    return titles


type Run = tuple[str, list[DraftStep]]


def grouped(steps: list[DraftStep], facts: CatalogFacts) -> list[DraftSection]:
    """Runs of steps under one title, Start here first on its own; of the others, while one is
    a lone step or there are more than MAX_SECTIONS, the smallest joins its smaller neighbour
    under the larger one's title."""
    runs: list[Run] = []
    for title, step in zip(section_titles(steps, facts), steps, strict=True):
        if runs and runs[-1][0] == title:
            runs[-1][1].append(step)
        else:
            runs.append((title, [step]))
    head = runs[:1] if runs and runs[0][0] == START_HERE_TITLE else []
    body = runs[len(head) :]
    while len(body) > 1:
        sizes = [len(run) for _, run in body]
        small = sizes.index(min(sizes))
        if sizes[small] > 1 and len(head) + len(body) <= MAX_SECTIONS:
            break
        right = small == 0 or (small + 1 < len(body) and sizes[small + 1] < sizes[small - 1])
        first = small if right else small - 1
        body[first : first + 2] = [joined(body[first], body[first + 1])]
        body = coalesced(body)
    return [DraftSection(title, run) for title, run in head + body]


def coalesced(runs: list[Run]) -> list[Run]:
    """Neighbouring runs that a join left under one title, as one."""
    merged: list[Run] = []
    for run in runs:
        if merged and merged[-1][0] == run[0]:
            merged[-1] = joined(merged[-1], run)
        else:
            merged.append(run)
    return merged


def joined(before: Run, after: Run) -> Run:
    title = before[0] if len(before[1]) >= len(after[1]) else after[0]
    return title, before[1] + after[1]
