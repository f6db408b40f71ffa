"""How readers' behaviour reaches related sources without the catalog knowing any reader app.

The catalog knows no other app, yet "readers who finished this also finished" needs readers'
bookmarks. So the app that keeps them registers a provider here, in its AppConfig.ready():

    register_co_reading(finished_next_counts)

A provider returns {(source_id, next_source_id): number of readers} for readers who finished
`source_id` and then `next_source_id`. The catalog calls it when it recomputes neighbours and
stores only the resulting rows (SourceNeighbour), so the dependency points one way: the reader
app imports catalog, never the reverse.
"""

from collections import Counter
from collections.abc import Callable

CoReadingCounts = Callable[[], dict[tuple[int, int], int]]

_providers: list[CoReadingCounts] = []


def register_co_reading(provider: CoReadingCounts) -> None:
    if provider not in _providers:
        _providers.append(provider)


def co_reading_counts() -> Counter:
    """Every registered provider's counts, summed."""
    total: Counter = Counter()
    for provider in _providers:
        total.update(provider())
    return total
