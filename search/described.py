"""Described needs: a reader who cannot name the source yet describes the problem or asks.

Every word of a query is required by the first match (the all-words match). A reader who asks
"why is my decode step memory bound" uses words no single source has, so when that match is
empty or thin (fewer than THIN sources), the page also ranks the *any-word* match: each source
that has at least one meaningful word of the query, scored by the words it has, each word
weighted by its rarity over the catalog (an IDF, so "kernel" counts less than "speculative") and
by where it is (title, aliases, topics, summary: the summary carries real weight here, unlike in
the all-words rank, where a name in the title must win). Words are stemmed on both sides
("decoding" finds "decode"): PostgreSQL's english configuration does it for the document, and
the Snowball English stemmer, the same algorithm, for the SQLite backend.

`fused_rank()` is the one place the two rankings meet: a source the query names first, then the
all-words matches in today's order, then the any-word matches by score. Question and description
forms drop their filler before either match ("how does X work" requires X only).
"""

import functools
import math
import re
import threading
from dataclasses import dataclass

import snowballstemmer


def word_set(text: str) -> frozenset[str]:
    return frozenset(text.split())


# PostgreSQL's english.stop list: these words are never searched on either database.
STOP_WORDS = word_set(
    """i me my myself we our ours ourselves you your yours yourself yourselves he him his himself
    she her hers herself it its itself they them their theirs themselves what which who whom this
    that these those am is are was were be been being have has had having do does did doing a an
    the and but if or because as until while of at by for with about against between into through
    during before after above below to from up down in out on off over under again further then
    once here there when where why how all any both each few more most other some such no nor not
    only own same so than too very s t can will just don should now"""
)
# The words of a question or a description that say how the reader asks, not what about:
# "how does X work", "what is a X", "why is my X slow", "X vs Y", "best way to Y". Only
# filler: words that can name what a source is about ("several GPUs", "one model", "type
# system", "use case", "make", "sort") are the reader's subject and count.
FILLER = word_set(
    """how what why which when where who does do did is are can could should would will work works
    working worked way ways best good better vs versus difference different differ compare
    compared explain explained meaning mean means get getting need want tell learn understand
    something thing things anything many much lot lots really actually exactly happen happens
    happening"""
)
# Words in the query: letters and digits ("sm_100" is "sm100", as names are compared).
QUERY_TOKEN = re.compile(r"[a-z0-9]+")
DOCUMENT_TOKEN = re.compile(r"[a-z0-9]+")
# Acronym plurals, camel-case names and where they split (document.py declares the same for
# PostgreSQL).
ACRONYM_PLURAL = re.compile(r"\b([A-Z]{2,}[0-9]*)s\b")
CAMEL_WORD = re.compile(r"\b[A-Za-z0-9]*(?:[a-z][A-Z]|[A-Z]{2}[a-z]{2})[A-Za-z0-9]*\b")
CAMEL_LOWER_UPPER = re.compile(r"([a-z])([A-Z])")
CAMEL_CAPITALS_WORD = re.compile(r"([A-Z])([A-Z][a-z]{2})")
# A number format or a chip: letters and digits in one token (FP6, INT4, H200, GB200, SM90,
# MXFP4). Each is its own word: never a version of another, never corrected into another.
TECHNICAL = re.compile(r"(?=[a-z0-9]*[a-z])(?=[a-z0-9]*[0-9])[a-z0-9]+")
# Block-scaled formats named by their element format (MXFP6 is FP6 elements under one scale;
# NVFP4 is FP4): the umbrella specification ranks for each member it covers.
FORMAT_FAMILIES = ("mx", "nv")

# The all-words match is "thin" below this many sources: then the any-word match fills the page.
THIN = 10
# A word that more sources than this have is common: it ranks the any-word matches but does not
# widen them alone (at 100,000 sources a common word matches tens of thousands); a source with
# every word the catalog has is matched whatever their frequencies. Document frequencies are
# counted up to this, so the rows the any-word match adds are bounded by the rare words' counts
# and the all-found-words match, which the index gives.
COMMON = 2000
# Where a word is found, as the any-word score weighs it ({D, C, B, A} as ts_rank takes them:
# summary and authors, topics and venue, aliases, title). The summary says what a source is
# about in the catalog's own words, which a described need shares more than its name.
DESCRIBED_WEIGHTS = (0.7, 0.4, 0.9, 1.0)
# The order of the page: named sources (their bonus is 100 and more), then every match by its
# any-word score times the prior's cube root, a source with every word ahead by this much: a
# third of the query's words in the title. A source with every word only in its summary is
# then still below one that has the rarest of them in its title.
ALL_WORDS_BONUS = 0.3
# How far closeness in meaning moves an any-word score (meaning_factor()): a source about what
# the query describes in the catalog's latent space (semantic.py) scores up to three times one
# that only shares its words. Closeness past CLOSE counts as CLOSE: "mixture of experts" is as
# much about the load balancer for experts as the paper that introduced them, whose words then
# put it first. Both chosen on the judged queries (weights 0.5-5, CLOSE 0.6-1).
MEANING_WEIGHT = 2.0
CLOSE = 0.8

# A Snowball stemmer keeps the word it is working on in itself, so two threads of a server
# stemming at once would corrupt each other's word: each thread has its own.
_stemmers = threading.local()


# A search stems each query word and every form of the equivalents table several times, and
# Snowball in pure Python costs about 50 µs a word: a process remembers the words it has seen.
@functools.lru_cache(maxsize=8192)
def stem(word: str) -> str:
    stemmer = getattr(_stemmers, "english", None)
    if stemmer is None:
        stemmer = _stemmers.english = snowballstemmer.stemmer("english")
    return str(stemmer.stemWord(word))


def is_technical(word: str) -> bool:
    return bool(TECHNICAL.fullmatch(word))


def subject_words(words: tuple[str, ...]) -> tuple[str, ...]:
    """The words that say what the query is about: without question filler and stop words, or
    all of them when nothing else is left ("what is", "how does it work")."""
    kept = tuple(w for w in words if w not in FILLER and w not in STOP_WORDS)
    return kept or words


def meaningful_words(words: tuple[str, ...]) -> tuple[str, ...]:
    """The subject words a source must have one of to be an any-word match."""
    tokens = [t for w in words for t in QUERY_TOKEN.findall(w.replace("_", ""))]
    # A number keeps its meaning ("3 bit weights", "2:4 sparsity", "8 GPUs"); a lone letter
    # other than a digit says nothing.
    return tuple(
        dict.fromkeys(
            t
            for t in tokens
            if t not in FILLER and t not in STOP_WORDS and (len(t) > 1 or t.isdigit())
        )
    )


def term_alternatives(word: str) -> tuple[str, ...]:
    """The indexed words that count as `word`: itself, and for a number format its block-scaled
    family members ("fp6": "mxfp6", "nvfp6")."""
    if is_technical(word) and word[0].isalpha():
        return (word, *(prefix + word for prefix in FORMAT_FAMILIES))
    return (word,)


def idf(document_frequency: int, total: int) -> float:
    """BM25's inverse document frequency: rarer words weigh more, and none weighs less than 0."""
    total = max(total, document_frequency)
    return math.log(1 + (total - document_frequency + 0.5) / (document_frequency + 0.5))


@dataclass(frozen=True)
class Term:
    """One meaningful word of a query: how it is searched, and its weight."""

    word: str
    weight: float  # idf, normalised so that a query's weights add up to 1
    widens: bool  # whether sources with only this word are matched (a rare word)


def weighted_terms(frequencies: dict[str, int], total: int) -> tuple[Term, ...]:
    """The query's words with their weights; words no source has are left out. Only the rare
    words widen the match alone (the sources with every found word are matched too)."""
    found = {word: df for word, df in frequencies.items() if df > 0}
    if not found:
        return ()
    weights = {word: idf(df, total) for word, df in found.items()}
    whole = sum(weights.values()) or 1.0
    return tuple(
        Term(word, weights[word] / whole, widens=df < COMMON) for word, df in found.items()
    )


def fused_rank[Rank](
    *,
    named: Rank | float,
    all_words: Rank | float,
    described: Rank,
    nudge: Rank,
    meaning: Rank | float = 1.0,
) -> Rank:
    """The page's order when the any-word match is ranked, for numbers or SQL expressions
    alike: `named` (the names bonus), then the any-word score `described` times `nudge`, the
    cube root of the prior, plus ALL_WORDS_BONUS for an all-words match (`all_words` 1, else
    0). The prior only nudges the score, since a narrower source that has the words must still
    beat a trusted one that has few of them; and the words' rarity and place rank the all-words
    matches too, which the name-first text rank would order by their titles alone. `meaning`
    (meaning_factor()) scales the score by how close the source is to the query as a whole."""
    # Rank is a number or a Django expression: both have + and *, a bound mypy cannot state.
    return named + all_words * ALL_WORDS_BONUS + described * nudge * meaning  # type: ignore[operator]


def meaning_factor(similarity: float) -> float:
    """How much a source's closeness to the query (semantic.py, a cosine) scales its any-word
    score: a source about what the query describes outranks one that shares its words by
    chance. Past CLOSE every source counts as about it, so among those the words decide."""
    return 1.0 + MEANING_WEIGHT * min(max(similarity, 0.0) / CLOSE, 1.0)


def nudge(prior: float) -> float:
    """How much the prior moves an any-word score (fused_rank): its cube root."""
    return prior ** (1 / 3)


def camel_parts(text: str) -> str:
    """The parts of each camel-case name in `text`, as the PostgreSQL document adds them
    (document.py): "FlashAttention, LMCache" gives "Flash Attention LM Cache"."""
    return " ".join(
        CAMEL_CAPITALS_WORD.sub(r"\1 \2", CAMEL_LOWER_UPPER.sub(r"\1 \2", word))
        for word in CAMEL_WORD.findall(text)
    )


def text_stems(text: str) -> list[str]:
    """The stems of a text's words, with the singular of each acronym plural ("GPUs": "GPU"),
    as the PostgreSQL document adds it."""
    text = " ".join([text, *ACRONYM_PLURAL.findall(text)])
    return [stem(token) for token in DOCUMENT_TOKEN.findall(text.lower())]


def document_stems(text: str) -> list[str]:
    """The stems of a text's words and of its camel-case names' parts."""
    return text_stems(f"{text} {camel_parts(text)}")


def query_stems(text: str) -> list[str]:
    """The stems of a query's meaningful words (filler and stop words out)."""
    words = tuple(DOCUMENT_TOKEN.findall(text.lower()))
    return [stem(word) for word in meaningful_words(subject_words(words))]
