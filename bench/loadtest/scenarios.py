"""What `manage.py loadtest` replays: one list of scenarios, resolved against the live URLconf.

Each scenario names a route; routes that do not exist (yet) are skipped and reported, so the
load test keeps working as features land. To cover a new page, add one line to SCENARIOS.
"""

import random
from dataclasses import dataclass, field
from typing import Any, TypedDict

from django.db.models import QuerySet
from django.urls import NoReverseMatch, reverse

from catalog.models import ReadingList, Source, Tier, Topic

TRIVIAL, PROBE, ANONYMOUS, SIGNED_IN = "trivial", "probe", "anonymous", "signed-in"
# Capacity targets, as a ratio to the trivial view's requests per second in the same run: every
# page (GET), anonymous or signed in, and each write its own (docs/benchmarks.md, "Load test").
PAGE_TARGET = 0.5
TOGGLE_TARGET = 0.3
NOTE_TARGET = 0.2
SEARCH_TERMS = [
    "attention",
    "flash attention",
    "kv cache",
    "speculative decoding",
    "roofline",
    "quantization",
    "cuda",
    "triton",
    "serving",
    "paged",
    "tensor cores",
    "batching",
]


@dataclass
class Scenario:
    name: str
    route: str
    audience: str
    weight: int = 1
    args: str | None = None  # "source", "topic", "tier", "list": one sampled slug per URL
    query: str | None = None  # "search": a sampled ?q=
    method: str = "GET"
    data: dict[str, list[str]] = field(default_factory=dict)
    htmx: bool = False
    # Ratio to the trivial view; None: PAGE_TARGET for a page, no target for the references.
    target: float | None = None


class PlannedScenario(TypedDict):
    """A scenario resolved to concrete paths, as the locust runner reads it."""

    name: str
    audience: str
    weight: int
    method: str
    paths: list[str]
    data: dict[str, list[str]]
    htmx: bool
    target: float | None


SCENARIOS = [
    # The reference: a trivial Django view through the whole middleware stack, as every page is.
    Scenario("trivial view (/robots.txt)", "robots", TRIVIAL),
    # Shown for comparison: the health probe is answered before sessions, CSRF and CSP.
    Scenario("probe (/healthz)", "healthz", PROBE),
    Scenario("home", "pages:home", ANONYMOUS, weight=3),
    Scenario("browse", "pages:source-list", ANONYMOUS, weight=2),
    Scenario("search", "pages:source-list", ANONYMOUS, weight=3, query="search"),
    Scenario("source page", "pages:source-detail", ANONYMOUS, weight=4, args="source"),
    Scenario("topic page", "pages:topic-detail", ANONYMOUS, args="topic"),
    Scenario("tier page", "pages:tier-detail", ANONYMOUS, args="tier"),
    Scenario("list page", "pages:list-detail", ANONYMOUS, args="list"),
    Scenario("home (signed in)", "pages:home", SIGNED_IN, weight=2),
    Scenario("search (signed in)", "pages:source-list", SIGNED_IN, weight=2, query="search"),
    Scenario("source page (signed in)", "pages:source-detail", SIGNED_IN, 3, args="source"),
    Scenario("my library", "library:index", SIGNED_IN, weight=2),
    Scenario("my notes", "notes:mine", SIGNED_IN),
    Scenario(
        "bookmark toggle (POST)",
        "library:bookmark",
        SIGNED_IN,
        weight=2,
        args="source",
        method="POST",
        data={"status": ["to_read", "reading", "read", "remove"]},
        htmx=True,
        target=TOGGLE_TARGET,
    ),
    Scenario(
        "add a note (POST)",
        "notes:create",
        SIGNED_IN,
        args="source",
        method="POST",
        data={"body": ["Load test note: worth rereading."], "visibility": ["private"]},
        htmx=True,
        target=NOTE_TARGET,
    ),
]


def _samples(kind: str, size: int) -> list[str]:
    querysets: dict[str, QuerySet[Any]] = {
        "source": Source.objects.published(),
        "topic": Topic.objects.all(),
        "tier": Tier.objects.all(),
        "list": ReadingList.objects.all(),
    }
    slugs = list(querysets[kind].order_by("?").values_list("slug", flat=True)[:size])
    return slugs


def _target(scenario: Scenario) -> float | None:
    if scenario.target is not None or scenario.audience in (TRIVIAL, PROBE):
        return scenario.target
    return PAGE_TARGET if scenario.method == "GET" else None


def resolve(
    scenarios: list[Scenario] = SCENARIOS, *, samples: int = 20, seed: int = 1
) -> tuple[list[PlannedScenario], list[str]]:
    """Turn scenarios into concrete requests; returns (plan, skipped reasons)."""
    random.seed(seed)
    plan: list[PlannedScenario] = []
    skipped: list[str] = []
    for scenario in scenarios:
        try:
            if scenario.args:
                slugs = _samples(scenario.args, samples)
                if not slugs:
                    skipped.append(f"{scenario.name}: no {scenario.args} in the database")
                    continue
                paths = [reverse(scenario.route, args=[slug]) for slug in slugs]
            else:
                paths = [reverse(scenario.route)]
        except NoReverseMatch:
            skipped.append(f"{scenario.name}: no route named {scenario.route!r}")
            continue
        if scenario.query == "search":
            paths = [f"{paths[0]}?q={term.replace(' ', '+')}" for term in SEARCH_TERMS]
        plan.append(
            {
                "name": scenario.name,
                "audience": scenario.audience,
                "weight": scenario.weight,
                "method": scenario.method,
                "paths": paths,
                "data": scenario.data,
                "htmx": scenario.htmx,
                "target": _target(scenario),
            }
        )
    return plan, skipped
