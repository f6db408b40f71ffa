"""The search's speed tricks, each switchable off by name for bench_tricks (docs/speed.md)."""

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager

from readinglist.speed_tricks import swapped, uncached

from . import postgres_page, postgres_rank, shared, sqlite_page


@contextmanager
def card_text_left_unset() -> Iterator[None]:
    """Result cards fetched without the text their search already computed."""
    with (
        swapped(postgres_page, "plain_cards", shared.cards),
        swapped(sqlite_page, "plain_cards", shared.cards),
    ):
        yield


def prior_compiled_per_search() -> AbstractContextManager[None]:
    """The tiers' ranking prior compiled into SQL on every search."""
    return swapped(postgres_rank, "entry_prior_sql", uncached(postgres_rank.entry_prior_sql))
