"""Words of the field that mean the same thing, so a query with one finds sources with another.

Readers and authors name the same thing differently: "KV cache" and "key-value cache", "MoE"
and "mixture of experts", "TTFT" and "time to first token", "quantisation" and "quantization".
Stemming joins "decoding" and "decode", not these. `alternatives()` gives, for each meaningful
word of a query, the other forms that count as it; both backends search a word as itself or any
of them, in the all-words and the any-word match alike, so a form counts wherever the word would.

The table is general vocabulary of the field (abbreviations and what they stand for, and a few
phrases that say the same), kept short on purpose: every form it adds widens a match.
"""

import functools
import re

from .described import FILLER, STOP_WORDS, stem, term_alternatives, word_set
from .everyday import EVERYDAY

# Each row: forms that mean the same. A form of several words counts as a phrase (its words in
# order; "key value" finds "key-value"); a query that spells a form out ("mixture of experts"),
# its words side by side in any order, lets each of them count as the row's other forms too
# ("MoE").
EQUIVALENTS: tuple[tuple[str, ...], ...] = (
    # Abbreviations and what they stand for.
    ("kv", "key value"),
    ("moe", "mixture of experts"),
    ("llm", "large language model"),
    ("vlm", "vision language model"),
    ("ssm", "state space model"),
    ("gemm", "matmul", "matrix multiplication", "matrix multiply"),
    ("ttft", "time to first token", "first token latency"),
    ("tpot", "itl", "time per output token", "inter token latency"),
    ("slo", "service level objective"),
    ("tp", "tensor parallelism"),
    ("pp", "pipeline parallelism"),
    ("ep", "expert parallelism"),
    ("gqa", "grouped query attention"),
    ("mqa", "multi query attention"),
    ("mla", "multi head latent attention"),
    ("rope", "rotary position embedding"),
    ("hbm", "high bandwidth memory"),
    ("rdma", "remote direct memory access"),
    ("rag", "retrieval augmented generation"),
    ("sm", "streaming multiprocessor"),
    ("tma", "tensor memory accelerator"),
    ("ptq", "post training quantization"),
    ("qat", "quantization aware training"),
    ("lora", "low rank adaptation"),
    ("tts", "text to speech"),
    ("bf16", "bfloat16"),
    ("oom", "out of memory"),
    ("allreduce", "all reduce"),
    # Names the field gives the same thing.
    ("structured output", "structured generation", "constrained decoding", "guided decoding"),
    ("continuous batching", "in flight batching", "iteration level scheduling"),
    ("kernel fusion", "fused kernel", "operator fusion"),
    ("speculative decoding", "speculative sampling"),
    ("prefix caching", "prompt caching"),
    ("position embedding", "positional encoding"),
    ("multi gpu", "distributed"),
    ("low precision", "reduced precision", "low bit"),
    ("long context", "long sequence"),
    ("offload", "host memory", "cpu memory"),
    ("throughput", "tokens per second"),
)

# What a form counts for against the word the reader typed: a source with the reader's own
# word comes first, one with only an equivalent form of it after.
FORM_WEIGHT = 0.7

# British spellings ("quantisation", "analyse", "behaviour") and their American forms, which the
# catalog uses; the stemmer keeps the two apart.
BRITISH_IZE = re.compile(r"([a-z]{3,}?)(is|ys)(e|es|ed|ing|ation|ations|er|ers)")
BRITISH_OUR = re.compile(r"([a-z]+i)our(s?)")
# Adjectives a reader compares with ("slower than cuBLAS", "larger models"): the stemmer keeps
# "slower" whole, and the catalog says "slow".
COMPARABLE = word_set("slow fast large small long short low high big cheap quick heavy easy")


@functools.cache
def content(form: str) -> tuple[str, ...]:
    """The stems of the words of a form a query's meaningful words would show: no stop words
    or filler."""
    return tuple(stem(w) for w in form.split() if w not in STOP_WORDS and w not in FILLER)


def spellings(word: str) -> tuple[str, ...]:
    """Other spellings of `word`: American for British, the plain adjective for a comparative."""
    found = []
    if match := BRITISH_IZE.fullmatch(word):
        prefix, middle, suffix = match.groups()
        found.append(prefix + middle.replace("s", "z") + suffix)
    if match := BRITISH_OUR.fullmatch(word):
        found.append(f"{match[1]}or{match[2]}")
    for suffix in ("er", "est"):
        if word.endswith(suffix):
            base = word.removesuffix(suffix)
            bases = (base, base + "e", base[:-1], base[:-1] + "y" if base.endswith("i") else "")
            found += [b for b in bases if b in COMPARABLE][:1]
    return tuple(found)


@functools.cache
def spelled_forms() -> dict[tuple[str, ...], tuple[tuple[int, tuple[str, ...]], ...]]:
    """The forms of the tables a query's words can spell, by their stems sorted (side by side in
    any order spells a form), each with its place in the tables and the forms that count as
    it: its row's other forms, or an everyday form's field words. Computed once per process, so
    a query looks up each run of its words rather than comparing every form."""
    pairs = [(form, tuple(o for o in row if o != form)) for row in EQUIVALENTS for form in row]
    # An everyday form counts as the field's words, never the other way round (everyday.py).
    pairs += [(form, fields) for everyday, fields in EVERYDAY for form in everyday]
    found: dict[tuple[str, ...], list[tuple[int, tuple[str, ...]]]] = {}
    for place, (form, others) in enumerate(pairs):
        spelled = content(form)
        # "memory" is not "out of memory".
        if spelled and (len(form.split()) == 1 or len(spelled) >= 2):
            found.setdefault(tuple(sorted(spelled)), []).append((place, others))
    return {key: tuple(rows) for key, rows in found.items()}


@functools.cache
def spelled_lengths() -> tuple[int, ...]:
    return tuple(sorted({len(key) for key in spelled_forms()}))


def alternatives(words: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    """For each of a query's meaningful `words`, in order, the forms that count as it besides
    itself: a number format's block-scaled family ("fp6": "mxfp6"), other spellings, its
    row's other forms, and the other forms of a row whose form the words spell out together,
    side by side in any order."""
    found: dict[str, list[str]] = {word: [*term_alternatives(word)[1:]] for word in words}
    for word in words:
        found[word] += spellings(word)
    stems = tuple(stem(word) for word in words)
    forms = spelled_forms()
    spelled = []
    for length in spelled_lengths():
        for start in range(len(words) - length + 1):
            # Side by side in any order: "latency of the first token" spells "first token latency".
            for place, others in forms.get(tuple(sorted(stems[start : start + length])), ()):
                spelled.append((place, start, length, others))
    for _, start, length, others in sorted(spelled, key=lambda row: row[:2]):
        for word in words[start : start + length]:
            found[word] += others
    return {word: tuple(dict.fromkeys(forms)) for word, forms in found.items() if forms}


def tsquery_form(form: str) -> str:
    """A form as to_tsquery reads it: a phrase's words in order ("key <-> value")."""
    return " <-> ".join(form.split())


def tsquery_alternatives(word: str, forms: tuple[str, ...]) -> str:
    """`word` or any of its forms, as a to_tsquery string (word characters and operators)."""
    return " | ".join([word, *(tsquery_form(form) for form in forms)])


def with_forms(query: str, words: tuple[str, ...]) -> str:
    """A to_tsquery string of `words` (words_query()'s) with each word that has other forms
    searched as itself or any of them: one conjunction, so the index reads each word's
    alternatives once ("(kv) & (cache)" becomes "((kv | key <-> value)) & (cache)")."""
    original = query
    for word, forms in alternatives(words).items():
        # A number format's family is already there (corrections.read_word()).
        new = tuple(f for f in forms if not re.search(rf"\b{f}\b", original))
        if new:
            searched = tsquery_alternatives(word, new)
            query = re.sub(rf"\b{re.escape(word)}\b(?!:)", f"({searched})", query)
    return query
