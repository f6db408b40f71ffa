"""Whether the catalog answers a search well, or the page should say it does not.

A page answers well when the query names a source or an identifier, when some source has
every word of it (the all-words match), or when one of the first sources shown has most of what
the query means: at least COVERED of its meaningful words' rarity (semantic.SemanticIndex
.coverage(): a word no source has counts as the rarest). Otherwise the closest partial matches
share only stray words ("network", "type", "new") and the page says that nothing in the
catalog answers the need well (`id="no-good-match"`), offers to propose a source and records
the gap (gaps.py). COVERED was chosen on the judged sets: docs/search.md gives the rates.
"""

from .semantic import catalog_index
from .shared import Matched

# The share of the query's meaning (its stems' rarity) the best shown source must have.
COVERED = 0.3
# How many of the first sources shown are looked at: the first page's.
LOOKED_AT = 10


def no_good_match(matched: Matched, ids: list[int], using: str) -> bool:
    """Whether the page should say that nothing in the catalog answers the query well."""
    if not matched or matched.named or matched.identified:
        return False
    if not ids:
        return True
    if not matched.partial or matched.complete:
        return False
    index = catalog_index(using)
    if index is None:
        return False  # without the index there is nothing to judge by: the words stand
    return index.coverage(matched.query.stems, ids[:LOOKED_AT]) < COVERED
