"""Judging goal drafts: learning goals with the sources relevant to each and the orders the
catalog shows, and the figures over them.

`tests/paths/goals.toml` holds the goals, judged from the shipped catalog before the drafter was
written: twenty it was tuned on, ten held out and ten fresh ones (docs/paths.md says how each was
used), reported apart. Two figures:

- **relevance**: the share of a draft's first ten steps (all of them, when it has fewer) that
  are relevant to its goal, averaged over the goals, with the lowest goal's beside it;
- **ordering**: the share of judged pairs (a before b) that the drafts keep, among the pairs
  whose two sources a draft holds.
"""

import statistics
import time
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings

GOALS = Path(settings.BASE_DIR) / "tests" / "paths" / "goals.toml"
SETS = JUDGED, HELD_OUT, FRESH = "judged", "held-out", "fresh"
FIRST_STEPS = 10
# The targets: at least this share of the first ten steps relevant on average, no goal below
# the second, and every judged ordering pair kept.
RELEVANCE_TARGET = 0.8
GOAL_FLOOR = 0.6
ORDERING_TARGET = 1.0
# Regression floors for the sets nobody tuned on, a little under their figures in
# docs/paths.md: they say how the drafter does on goals it was not fitted to, and a change that
# loses more than about a goal's worth there is worth a look.
UNTUNED_FLOORS = {"held-out": 0.55, "fresh": 0.72}

type Drafter = Callable[[str], list[str]]  # a goal to the slugs of its draft, in order


@dataclass(frozen=True)
class Goal:
    text: str
    relevant: frozenset[str]
    before: tuple[tuple[str, str], ...]
    set: str  # "judged", "held-out" or "fresh"


@dataclass(frozen=True)
class GoalFigure:
    goal: Goal
    slugs: tuple[str, ...]
    relevance: float
    pairs_checked: int
    pairs_broken: tuple[tuple[str, str], ...]
    seconds: float


@dataclass(frozen=True)
class Figures:
    goals: tuple[GoalFigure, ...]

    @property
    def relevance(self) -> float:
        return statistics.fmean(g.relevance for g in self.goals) if self.goals else 0.0

    @property
    def lowest(self) -> GoalFigure:
        return min(self.goals, key=lambda g: g.relevance)

    @property
    def pairs_checked(self) -> int:
        return sum(g.pairs_checked for g in self.goals)

    @property
    def pairs_broken(self) -> list[tuple[str, str]]:
        return [pair for g in self.goals for pair in g.pairs_broken]

    @property
    def ordering(self) -> float:
        checked = self.pairs_checked
        return (checked - len(self.pairs_broken)) / checked if checked else 1.0


def judged_goals(path: Path = GOALS) -> list[Goal]:
    with path.open("rb") as handle:
        rows = tomllib.load(handle)["goals"]
    return [
        Goal(
            text=row["goal"],
            relevant=frozenset(row["relevant"]),
            before=tuple((a, b) for a, b in row.get("before", [])),
            set=row.get("set", JUDGED),
        )
        for row in rows
    ]


def judge(goal: Goal, slugs: list[str], seconds: float = 0.0) -> GoalFigure:
    first = slugs[:FIRST_STEPS]
    relevance = sum(slug in goal.relevant for slug in first) / len(first) if first else 0.0
    position = {slug: index for index, slug in enumerate(slugs)}
    held = [(a, b) for a, b in goal.before if a in position and b in position]
    broken = tuple((a, b) for a, b in held if position[a] > position[b])
    return GoalFigure(goal, tuple(slugs), relevance, len(held), broken, seconds)


def evaluate(goals: list[Goal], drafter: Drafter) -> Figures:
    figures = []
    for goal in goals:
        started = time.perf_counter()
        slugs = drafter(goal.text)
        figures.append(judge(goal, slugs, time.perf_counter() - started))
    return Figures(tuple(figures))


def draft_slugs(goal: str) -> list[str]:
    from paths.drafting import draft_path

    return [step.source.slug for step in draft_path(goal).steps]


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]
