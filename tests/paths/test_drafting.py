"""A path drafted from a described goal: what it holds, in which order, why, and at what cost.

The judged goals (goals.toml) hold the drafter to the targets on the shipped catalog, on
whichever database the tests run on; the small catalog below checks each rule on its own.
"""

import dataclasses
from collections.abc import Sequence
from typing import TypedDict

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from bench.paths_relevance import (
    FRESH,
    GOAL_FLOOR,
    HELD_OUT,
    JUDGED,
    RELEVANCE_TARGET,
    UNTUNED_FLOORS,
    draft_slugs,
    evaluate,
    judged_goals,
)
from catalog.models import Topic
from catalog.models.sources import Source
from catalog.services import LoadReport
from paths.drafting import CANDIDATES, MAX_SECTIONS, PathDraft, draft_path
from search.page import matching_sources
from search.parsing import SearchParams
from tests.factories import (
    ListEntryFactory,
    ListSectionFactory,
    ReadingListFactory,
    SourceFactory,
    TopicFactory,
)
from tests.hints import Tiers

pytestmark = pytest.mark.django_db

# The judged pairs the drafts hold both sources of: enough that "every pair kept" says something.
MIN_PAIRS_CHECKED = 30


class AttentionCatalog(TypedDict):
    basics: Source
    flash: list[Source]
    online: Source
    old: Source
    paged: Source


@pytest.fixture
def attention_catalog(tiers: Tiers) -> AttentionCatalog:
    """A primary-source path with a Start-here step and an attention-kernels section, a linked
    older source off the path, a source superseded by the first kernel, and one about serving."""
    kernels = TopicFactory(slug="kernels", name="Kernel engineering", position=1)
    attention = TopicFactory(slug="attention", name="Attention", parent=kernels, position=2)
    serving = TopicFactory(slug="serving", name="Serving engines", position=3)
    primary = ReadingListFactory(slug="primary", title="Primary sources", position=0)
    start = ListSectionFactory(reading_list=primary, slug="start-here", title="Start here")
    section = ListSectionFactory(reading_list=primary, slug="kernels", title="Attention kernels")

    def source(
        slug: str,
        title: str,
        tier: str,
        summary: str,
        year: int | None = None,
        topics: Sequence[Topic] = (attention,),
    ) -> Source:
        return SourceFactory(
            slug=slug,
            title=title,
            tier=tiers[tier],
            summary=summary,
            year=year,
            topics=list(topics),
        )

    basics = source(
        "gpu-basics", "GPU basics", "start-here", "How attention kernels run on a GPU.", 2020
    )
    flash = [
        source(f"flash-{n}", title, "core", f"Attention kernels, {words}.", year)
        for n, (title, words, year) in enumerate(
            [
                ("FlashAttention", "tiled and IO-aware", 2022),
                ("FlashAttention-2", "with better work partitioning", 2024),
                ("FlashAttention-3", "for Hopper with asynchrony", 2024),
            ],
            start=1,
        )
    ]
    online = source(
        "online-trick", "Online softmax", "core", "The softmax trick attention kernels use.", 2018
    )
    old = source("old-kernel", "Attention kernel zero", "core", "Early attention kernels.")
    old.replaced_by = flash[0]
    old.save()
    paged = source(
        "paged-kv", "Paged KV cache", "core", "Serving engines and their memory.", 2023, [serving]
    )
    ListEntryFactory(section=start, source=basics, position=1)
    for position, kernel in enumerate(flash, start=1):
        ListEntryFactory(section=section, source=kernel, position=position)
    flash[0].related.add(online, flash[1])
    flash[1].related.add(flash[2])
    return {"basics": basics, "flash": flash, "online": online, "old": old, "paged": paged}


def slugs(draft: PathDraft) -> list[str]:
    return [step.source.slug for step in draft.steps]


def reason_of(draft: PathDraft, slug: str) -> str:
    return next(step.reason for step in draft.steps if step.source.slug == slug)


def test_a_goal_drafts_the_start_here_step_first_then_the_path_in_order(
    attention_catalog: AttentionCatalog,
) -> None:
    draft = draft_path("attention kernels")

    order = slugs(draft)
    assert order[0] == "gpu-basics"
    assert order.index("flash-1") < order.index("flash-2") < order.index("flash-3")
    assert "paged-kv" not in order
    assert draft.notice is None
    assert draft.sections[0].title == "Start here"


def test_a_linked_older_source_and_a_superseded_one_come_before_the_kernel(
    attention_catalog: AttentionCatalog,
) -> None:
    order = slugs(draft_path("attention kernels"))

    assert order.index("online-trick") < order.index("flash-1")
    assert order.index("old-kernel") < order.index("flash-1")


def test_each_reason_says_what_the_catalog_holds(attention_catalog: AttentionCatalog) -> None:
    draft = draft_path("attention kernels")

    assert reason_of(draft, "gpu-basics").startswith("Start-here path, step 1")
    flash = reason_of(draft, "flash-2")
    assert "Primary-source path, section “Attention kernels”" in flash
    assert "matches “attention”, “kernels”" in flash
    assert "superseded by FlashAttention" in reason_of(draft, "old-kernel")
    assert reason_of(draft, "online-trick").startswith("Topic “Attention”")


def test_the_draft_keeps_to_its_limit(attention_catalog: AttentionCatalog) -> None:
    draft = draft_path("attention kernels", limit=2)

    assert len(draft.steps) == 2
    assert "little" in (draft.notice or "")


def test_sections_are_few_titled_and_never_empty(attention_catalog: AttentionCatalog) -> None:
    draft = draft_path("attention kernels")

    assert 1 <= len(draft.sections) <= MAX_SECTIONS
    assert all(section.title and section.steps for section in draft.sections)
    titles = [section.title for section in draft.sections]
    assert set(titles) <= {"Start here", "Attention", "Kernel engineering"}


@pytest.mark.parametrize("goal", ["", "   ", "\x00\x07"])
def test_a_goal_without_words_asks_for_some(attention_catalog: AttentionCatalog, goal: str) -> None:
    draft = draft_path(goal)

    assert draft.sections == []
    assert draft.notice == "Describe what you want to learn, in a few words."


def test_a_goal_the_catalog_has_nothing_on_says_so(attention_catalog: AttentionCatalog) -> None:
    draft = draft_path("bake sourdough bread")

    assert draft.steps == []
    assert "The catalog has nothing on “bake sourdough bread” yet" in (draft.notice or "")


def test_a_goal_the_catalog_has_little_on_says_so(attention_catalog: AttentionCatalog) -> None:
    draft = draft_path("paged kv cache memory")

    assert slugs(draft) == ["paged-kv"]
    assert draft.notice is not None
    assert "only 1 source is close to it" in draft.notice


def test_a_very_long_goal_is_cut_to_what_search_reads(attention_catalog: AttentionCatalog) -> None:
    goal = "attention kernels " + "and more words " * 2000

    draft = draft_path(goal)

    assert draft.goal == goal
    assert "flash-1" in slugs(draft)


def test_the_draft_is_frozen(attention_catalog: AttentionCatalog) -> None:
    draft = draft_path("attention kernels")

    with pytest.raises(dataclasses.FrozenInstanceError):
        draft.notice = "changed"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        draft.steps[0].reason = "changed"  # type: ignore[misc]


def queries_for(goal: str) -> tuple[int, int]:
    """The statements a draft runs: all of them, and those beyond search's own (one fewer when
    no source outside the candidates is linked to them: Django skips a query for no ids)."""
    with CaptureQueriesContext(connection) as searching:
        matching_sources(SearchParams(q=goal), limit=CANDIDATES)
    with CaptureQueriesContext(connection) as drafting:
        draft_path(goal)
    return len(drafting), len(drafting) - len(searching)


def test_a_draft_runs_a_fixed_number_of_queries_beyond_search(
    attention_catalog: AttentionCatalog, tiers: Tiers
) -> None:
    goal = "attention kernels"
    queries_for(goal)  # the latent index of this catalog, built once per catalog version
    few, own_few = queries_for(goal)
    section = ListSectionFactory(title="More kernels", position=9)
    for n in range(60):
        more = SourceFactory(
            slug=f"kernel-{n}",
            summary=f"Attention kernels, variant {n}.",
            tier=tiers["core"],
            topics=[attention_catalog["flash"][0].topics.get()],
        )
        more.related.add(attention_catalog["flash"][n % 3])
        ListEntryFactory(section=section, source=more, position=n + 1)
    queries_for(goal)
    many, own_many = queries_for(goal)

    assert own_few <= 4 and own_many <= 4
    assert max(few, many) <= 14


@pytest.mark.slow
def test_judged_goals_reach_the_targets_and_keep_every_order(full_catalog: LoadReport) -> None:
    goals = judged_goals()
    figures = {
        name: evaluate([g for g in goals if g.set == name], draft_slugs)
        for name in (JUDGED, HELD_OUT, FRESH)
    }

    judged = figures[JUDGED]
    assert len(judged.goals) == 20
    assert judged.relevance >= RELEVANCE_TARGET
    assert judged.lowest.relevance >= GOAL_FLOOR, judged.lowest.goal.text
    for figure in figures.values():
        assert figure.pairs_broken == []
    assert sum(f.pairs_checked for f in figures.values()) >= MIN_PAIRS_CHECKED
    for name, floor in UNTUNED_FLOORS.items():
        assert len(figures[name].goals) == 10
        assert figures[name].relevance >= floor, name
