"""Typo correction on PostgreSQL: what a word the catalog has never used most likely means.

The vocabulary (`catalog_search_word`, kept by the search triggers) is every word of the
searched text, unstemmed. `words_query()` turns a query's words into to_tsquery strings with
their corrections, in one statement however many words there are; every word searched in place
of a typed one is announced on the page, and `exact=1` searches the words as typed.
"""

import itertools
from dataclasses import dataclass, field

from .described import FILLER, STOP_WORDS, is_technical, stem, term_alternatives, word_set
from .english import is_english

# Two-letter endings of English words: "positional" is not "position al", "offload" not "off
# load" (a stop word), whatever the vocabulary holds.
SUFFIXES = word_set("al ed er es ly ic en ty ry or ar ve le re ng ll us um ia")
# Words never joined with their neighbour into a compound: "is a" is not "ISA".
NOT_COMPOUNDED = STOP_WORDS | FILLER

# A word the catalog has never used is corrected to the vocabulary word it most likely means
# (the vocabulary is every word of the searched text, in its unstemmed form, a few hundred to a
# few thousand rows). One statement, whatever the query, returns what choosing needs; its cost is
# the trigram search of each unknown word, as it always was (a known word costs none):
#   known  every string asked about that is a vocabulary word: the words, the compounds of two
#          adjacent words, and each word's near misses (a swapped pair of letters or a letter
#          left out: "cahce", "medusaa") and splits ("kvcache": "kv", "cache");
#   stop   the words and near misses English search ignores ("of", "against"): a stop word
#          is never corrected, nor a correction, since it would match nothing;
#   near   for each unknown word, the closest vocabulary words by trigram (the trigram index)
#          and the shortest ones it starts ("rooflin": "roofline");
#   real   each unknown word whose stem the catalog has in another form ("paging" for "paged"):
#          a real word, whose correction into another word ("padding") must find clearly more
#          to be made.
# Python then picks by edit distance (a swapped pair counted as one edit), then likely slips,
# trigram similarity and length (closest()): "transfromer" is "transformer", not "transfer".
# Whether a string is a vocabulary word is asked with range conditions, which only the primary
# key's btree serves (0.01 ms a word): an equality also matches the trigram index's operator
# class, which PostgreSQL then preferred, at 3-6 ms a word.
CORRECTIONS_SQL = """
SELECT 'known', a.w, 0, NULL::text[] FROM unnest(%(asked)s::text[]) AS a(w)
WHERE EXISTS (SELECT 1 FROM catalog_search_word v WHERE v.word >= a.w AND v.word <= a.w)
UNION ALL
SELECT 'stop', s.w, 0, NULL FROM unnest(%(short)s::text[]) AS s(w)
WHERE ts_lexize('english_stem', s.w) = '{}'
UNION ALL
SELECT 'real', r.w, 0, NULL FROM unnest(%(words)s::text[]) AS r(w)
WHERE NOT EXISTS (SELECT 1 FROM catalog_search_word v WHERE v.word >= r.w AND v.word <= r.w)
AND EXISTS (SELECT 1 FROM catalog_search_entry e WHERE e.document @@ to_tsquery('english', r.w))
UNION ALL
SELECT 'near', q.w, 0, ARRAY(
  (SELECT v.word FROM catalog_search_word v
   WHERE v.word %% q.w AND ts_lexize('english_stem', v.word) <> '{}'
   ORDER BY v.word <-> q.w, v.word LIMIT 8)
  UNION
  (SELECT v.word FROM catalog_search_word v WHERE v.word LIKE q.pattern AND v.word <> q.w
   ORDER BY length(v.word), v.word LIMIT 3))
FROM unnest(%(correctable)s::text[], %(patterns)s::text[], %(lefts)s::text[], %(rights)s::text[])
  AS q(w, pattern, l, r)
WHERE NOT EXISTS (SELECT 1 FROM catalog_search_word v WHERE v.word >= q.w AND v.word <= q.w)
AND (q.l = ''
     OR NOT EXISTS (SELECT 1 FROM catalog_search_word v WHERE v.word >= q.l AND v.word <= q.l)
     OR NOT EXISTS (SELECT 1 FROM catalog_search_word v WHERE v.word >= q.r AND v.word <= q.r))
"""


def vocabulary_word(word: str) -> bool:
    """Whether the vocabulary could hold `word` (catalog_remember_words() keeps these)."""
    return 3 <= len(word) <= 40 and word[0].isalpha() and word.isalnum()


def edit_distance(a: str, b: str) -> int:
    """Damerau-Levenshtein distance (optimal string alignment): a swapped pair is one edit."""
    previous: list[int] = []
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        before, previous, row = previous, row, [i]
        for j, y in enumerate(b, 1):
            cost = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (x != y))
            if i > 1 and j > 1 and x == b[j - 2] and a[i - 2] == y:
                cost = min(cost, before[j - 2] + 1)
            row.append(cost)
    return row[-1]


def trigrams(word: str) -> set[str]:
    padded = f"  {word} "
    return {padded[i : i + 3] for i in range(len(padded) - 2)}


def trigram_similarity(a: str, b: str) -> float:
    """pg_trgm's similarity() for one lower-case word each."""
    x, y = trigrams(a), trigrams(b)
    return len(x & y) / len(x | y)


def edit_limit(word: str) -> int:
    """How many edits a correction of `word` may make: one in a short word."""
    return 1 if len(word) <= 4 else 2 if len(word) <= 8 else 3


def near_misses(word: str) -> list[str]:
    """`word` with two adjacent letters swapped or one letter left out: the typos trigrams
    miss in short words ("sglnag" shares too few trigrams with "sglang")."""
    swapped = [word[:i] + word[i + 1] + word[i] + word[i + 2 :] for i in range(len(word) - 1)]
    return [*swapped, *(word[:i] + word[i + 1 :] for i in range(len(word)))]


def splits(word: str) -> list[tuple[str, str]]:
    """Two words run together ("kvcache"): each part at least two letters."""
    return [(word[:i], word[i:]) for i in range(2, len(word) - 1)] if word.isalpha() else []


def digits(word: str) -> str:
    return "".join(ch for ch in word if ch.isdigit())


def unlikely_typo(typed: str, meant: str) -> bool:
    """Whether one edit from `meant` to `typed` is an unlikely slip: a letter replaced, or an
    extra letter that doubles none beside it. Left out, doubled and swapped letters are the
    likely ones: "ned" is "need" before "net", "gemmm" is "gemm" before "gemms"."""
    if len(typed) == len(meant):
        return sorted(typed) != sorted(meant)
    if len(typed) == len(meant) + 1:
        extra = next((i for i, x in enumerate(meant) if typed[i] != x), len(meant))
        return typed[extra] not in typed[max(extra - 1, 0) : extra] + typed[extra + 1 : extra + 2]
    return False


def closest(word: str, candidates: tuple[str, ...], real: bool = False) -> tuple[int, str] | None:
    """(edits, the candidate `word` most likely means), within edit_limit(): fewest edits, then
    likely slips before unlikely ones, then most trigrams shared ("ned" is "need", not "end"),
    then closest in length. A three-letter word only corrects a likely slip; a version number
    is never changed. A `real` word (everyday English) is read only as another form of itself
    ("modelling": "modeling") or through one likely slip ("tenor": "tensor"), never as a word
    a letter replaced or added would make ("newer" is not "fewer")."""
    scored = []
    for c in dict.fromkeys(candidates):
        if c == word or digits(c) != digits(word):
            continue
        edits = edit_distance(word, c)
        unlikely = edits == 1 and unlikely_typo(word, c)
        if real and stem(c) != stem(word) and (edits > 1 or unlikely):
            continue
        if edits <= edit_limit(word) and not (unlikely and len(word) <= 3):
            scored.append(
                (edits, unlikely, -trigram_similarity(word, c), abs(len(c) - len(word)), c)
            )
    if not scored:
        return None
    edits, *_, best = min(scored)
    return edits, best


@dataclass(frozen=True)
class Vocabulary:
    """What CORRECTIONS_SQL found about a query's words."""

    known: frozenset[str] = frozenset()
    stop: frozenset[str] = frozenset()
    near: dict[str, tuple[str, ...]] = field(default_factory=dict)  # unknown word: candidates
    # Unknown words whose stem the catalog has ("paging", "inaccurate"): words, not typos.
    real: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Reading:
    """How one word is searched: as typed, and as corrected (to_tsquery alternatives)."""

    typed: str
    corrected: str
    shown: str  # the word as "Showing results for" names it
    settled: bool  # known, not correctable, or corrected: no compound need rescue it


def read_word(word: str, vocabulary: Vocabulary) -> Reading:
    """A word the vocabulary lacks is corrected, and the correction announced, when it is one
    edit from a vocabulary word ("medusaa", "flashinfr", "rooflin": a last letter left out),
    else searched as the start of longer words when it is one ("spec" for "speculative"),
    else split into known words ("kvcache"), else corrected within edit_limit()."""
    if is_technical(word):
        # A number format or a chip ("fp6", "h200") is its own word: a one-letter difference
        # is another format or chip, never a typo. Its block-scaled family members count as it.
        alternatives = " | ".join(term_alternatives(word))
        return Reading(alternatives, alternatives, word, settled=True)
    candidates = vocabulary.near.get(word)
    if candidates is None or word in vocabulary.stop:
        return Reading(word, word, word, settled=True)
    # An everyday English word is what the reader meant unless a likely slip says otherwise
    # (closest()): "newer" is not a typo of "fewer", nor "carpet" of "car pet". It may still
    # start longer words ("spec": "speculative").
    real = is_english(word)
    misses = [m for m in near_misses(word) if m in vocabulary.known - vocabulary.stop]
    best = closest(word, (*candidates, *misses), real)
    completions = tuple(c for c in candidates if c.startswith(word))
    prefix = f"{word} | {word}:*" if completions else ""
    typed = prefix or word
    if prefix and len(word) >= 4:
        # A last letter left out reads as a word being typed: "rooflin" means "roofline".
        best = closest(word, completions, real)
    if best and best[0] == 1:
        return Reading(typed, f"{word} | {best[1]}", best[1], settled=True)
    if prefix:
        # Still being typed, or a short form of several words: each of them matches.
        return Reading(typed, prefix, word, settled=False)
    known = vocabulary.known - vocabulary.stop
    # Two known words, or a known one of four letters or more and two letters not a stop word
    # ("kv cache": the vocabulary has no two-letter words).
    parts = [
        (left, right)
        for left, right in (() if real else splits(word))
        if not {left, right} & STOP_WORDS
        and (
            {left, right} <= known
            or any(
                short not in vocabulary.stop | SUFFIXES
                and len(short) == 2
                and other in known
                and len(other) >= 4
                for short, other in ((left, right), (right, left))
            )
        )
    ]
    if parts:
        left, right = max(parts, key=lambda p: (set(p) <= known, min(map(len, p))))
        return Reading(typed, f"{word} | {left} & {right}", f"{left} {right}", settled=True)
    if best:
        return Reading(typed, f"{word} | {best[1]}", best[1], settled=True)
    return Reading(typed, typed, word, settled=False)


def words_query(words: tuple[str, ...], vocabulary: "Vocabulary") -> tuple[str, str, str, bool]:
    """To_tsquery strings built only from word characters, so always valid syntax: with the
    corrections, and as typed; the words as corrected ("" when none was); and whether a word is
    one the catalog has never used (a typo, rather than a re-reading of known words).

    Every word searched in place of a typed one is announced ("Showing results for ..."),
    and the typed word stays an alternative, so a correction never loses a match.
    """
    compounds = compounds_of(words)
    readings = [read_word(word, vocabulary) for word in words]
    typed_terms: list[str] = []
    terms: list[str] = []
    shown: list[str] = []
    i = 0
    while i < len(words):
        reading = readings[i]
        if i + 1 < len(words):
            compound, after = compounds[i], readings[i + 1]
            both = f"({reading.typed}) & ({after.typed})"
            fused = None
            if compound.isalpha() and not {words[i], words[i + 1]} & vocabulary.stop:
                fused = closest(compound, vocabulary.near.get(compound, ()))
            if compound in vocabulary.known and not {words[i], words[i + 1]} & NOT_COMPOUNDED:
                # "flash attention": FlashAttention is indexed as one word.
                typed_terms.append(f"({both} | {compound})")
                terms.append(typed_terms[-1])
                shown += words[i : i + 2]
                i += 2
                continue
            if fused and not (reading.settled and after.settled):
                # "flash atention": a typo in a compound the reader split, corrected as one
                # word before its parts ("flash" alone would become "flashinfer").
                typed_terms.append(f"({both})")
                terms.append(f"({words[i]} & {words[i + 1]} | {fused[1]})")
                shown.append(fused[1])
                i += 2
                continue
            if fused and fused[1] == reading.shown + after.shown:
                # "paged atention": the corrected parts are a compound the catalog has.
                typed_terms.append(f"({both})")
                terms.append(f"(({reading.corrected}) & ({after.corrected}) | {fused[1]})")
                shown += [reading.shown, after.shown]
                i += 2
                continue
        typed_terms.append(f"({reading.typed})")
        terms.append(f"({reading.corrected})")
        shown.append(reading.shown)
        i += 1
    corrected = " ".join(shown) if shown != list(words) else ""
    # A typo: a word neither the vocabulary nor, in another form, the catalog has. Any other
    # correction re-reads real words and is weighed against them (postgres_match.settled()).
    # A word read as one of its own forms ("blackwel": "blackwell") is a typo too.
    unknown = any(
        word in vocabulary.near
        and (word not in vocabulary.real or stem(word) == stem(reading.shown))
        for word, reading in zip(words, readings, strict=True)
    )
    return " & ".join(terms), " & ".join(typed_terms), corrected, unknown


def compounds_of(words: tuple[str, ...]) -> list[str]:
    return [a + b for a, b in itertools.pairwise(words)]


def vocabulary_params(words: tuple[str, ...]) -> dict[str, list[str]] | None:
    """CORRECTIONS_SQL's parameters: what to ask the vocabulary about the words, their compounds,
    near misses and splits; None when no word could be in it.

    A prefix alternative costs a third of the ranking time of a one-word query, so read_word()
    adds one only where it can match.
    """
    compounds = compounds_of(words)
    # A compound's near words matter only when a part of it is not a known word ("flash
    # atention"): two known words are searched as themselves and as their compound, never as a
    # compound's correction (words_query()), and each trigram search costs milliseconds.
    joined = {a + b: (a, b) for a, b in itertools.pairwise(words)}
    correctable = [w for w in dict.fromkeys([*words, *compounds]) if vocabulary_word(w)]
    if not correctable:
        return None
    parts = [p for w in words if vocabulary_word(w) for pair in splits(w) for p in pair]
    misses = [m for w in words if vocabulary_word(w) for m in near_misses(w)]
    return {
        "words": [w for w in dict.fromkeys(words) if vocabulary_word(w)],
        "asked": list(dict.fromkeys([*words, *compounds, *misses, *parts])),
        "short": list(dict.fromkeys([*words, *misses, *(p for p in parts if len(p) == 2)])),
        "correctable": correctable,
        "patterns": [f"{w}%" for w in correctable],
        "lefts": [joined[w][0] if w in joined and w not in words else "" for w in correctable],
        "rights": [joined[w][1] if w in joined and w not in words else "" for w in correctable],
    }


def vocabulary_from(rows: list[tuple]) -> Vocabulary:
    """What CORRECTIONS_SQL's rows (kind, word, _, candidates) say about the words."""
    return Vocabulary(
        known=frozenset(word for kind, word, _, _ in rows if kind == "known"),
        stop=frozenset(word for kind, word, _, _ in rows if kind == "stop"),
        near={word: tuple(near) for kind, word, _, near in rows if kind == "near"},
        real=frozenset(word for kind, word, _, _ in rows if kind == "real"),
    )


# Every word taken as known: how the words read before the vocabulary is asked.
ALL_KNOWN = Vocabulary()
