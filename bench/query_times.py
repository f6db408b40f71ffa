"""A search benchmark's timings: one query's, or a class of queries' pooled, and their
percentiles."""

import statistics
from dataclasses import dataclass, field


@dataclass
class QueryTimes:
    """One query's timings (ms), or a class's pooled."""

    query: str
    statements: int
    view: list[float] = field(default_factory=list)
    sql: list[float] = field(default_factory=list)
    rank: list[float] = field(default_factory=list)
    read: list[float] = field(default_factory=list)

    def p(self, name: str, percent: float) -> float:
        return percentile(getattr(self, name), percent)

    def p50(self, name: str) -> float:
        return self.p(name, 50)

    def extend(self, other: "QueryTimes") -> None:
        for name in ("view", "sql", "rank", "read"):
            getattr(self, name).extend(getattr(other, name))


def pool(queries: list[QueryTimes]) -> QueryTimes:
    pooled = QueryTimes("class", 0)
    for times in queries:
        pooled.extend(times)
    return pooled


def median_ratio(queries: list[QueryTimes]) -> float:
    return statistics.median(q.p50("view") / q.p50("sql") for q in queries)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))
    return ordered[index]
