"""Whether the catalog answers a search well, or the page should say it does not.

A page answers well when the query names a source or an identifier, when some source has
every word of it (the all-words match), or when most of what the query means is in words the
catalog has and one of the first sources shown has most of it. What a query means is its
meaningful words' rarity (semantic.SemanticIndex): a word no source has counts as the rarest;
a word a source has only in one of its equivalent or everyday forms counts in part, as the
search reads it so. More than UNKNOWN of it in words no source has, nor any form of them, is a
need the catalog does not cover ("a phone app's battery use"); otherwise the best of the first
sources shown must have at least COVERED of it (.coverage()). Short of that, the closest
partial matches share only stray words ("network", "type", "new") and the page says that
nothing in the catalog answers the need well (`id="no-good-match"`), offers to propose a source
and records the gap (gaps.py). UNKNOWN and COVERED were chosen on the judged sets:
docs/search.md gives the rates.
"""

from .described import stem
from .equivalents import alternatives, content
from .parsing import ParsedQuery
from .semantic import Forms, catalog_index
from .shared import Matched

# The share of the query's meaning (its stems' rarity) the best shown source must have.
COVERED = 0.35
# The share of the query's meaning in words no source has (nor any form of them) past which the
# catalog cannot answer it well, whatever its other words match ("a phone app's battery use").
UNKNOWN = 0.5
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
    query = matched.query
    words = index.weigh(query.stems, equivalent_forms(query))
    if index.unknown_share(words) > UNKNOWN:
        return True
    return index.coverage(words, ids[:LOOKED_AT]) < COVERED


def equivalent_forms(query: ParsedQuery) -> Forms:
    """{stem of a meaningful word: the stems of each form that counts as the word}: a need put
    in everyday words ("graphics card") is answered by a source in the field's ("GPU")."""
    found: Forms = {}
    for word, forms in alternatives(query.meaningful).items():
        stems = tuple(filter(None, (content(form) for form in forms)))
        found[stem(word)] = found.get(stem(word), ()) + stems
    return found
