"""The first stage of a search, parse: what the reader asked for, read once.

`parse_query()` turns the text into a `ParsedQuery`: its words, phrases, exclusions and `or`,
and everything later stages need from the text itself (the subject without question filler,
the words an any-word match ranks and their stems, what may name a source, whether it is an
identifier). Later stages read this object, never the text again. `SearchParams` carries it
with the page's filters, order and page number; `search.forms.SearchForm` builds them from
the request.
"""

import functools
import re
from dataclasses import dataclass, field

from catalog.identity import WorkKeys, work_keys
from catalog.models import ReadingList, Tier, Topic
from catalog.urlcanon import InvalidURL

from .described import FILLER, STOP_WORDS, meaningful_words, query_stems, subject_words
from .names import names_asked

MAX_QUERY_LENGTH = 200
MAX_WORDS = 16

TOKEN = re.compile(r'(-?)"([^"]*)"?|(\S+)')
WORD = re.compile(r"\w+")
# "FlashAttention-3": a word joined to another by punctuation, indexed as one token too.
JOINED_WORD = re.compile(r"\w[^\w\s\"]+\w")
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
# A question that asks what one term is: "what is a tensor core", "what does CTA mean",
# "explain occupancy", "define roofline", "warp meaning". The term is the rest, less articles.
DEFINITION = re.compile(
    r"(?:what(?:'s| is| are)|what does|what do|explain|define|definition of|meaning of)"
    r"\s+(?:an?\s+|the\s+)?(?P<term>.+?)(?:\s+(?:mean|means|stand for|stands for))?\s*\??"
    r"|(?P<before>.+?)\s+(?:meaning|definition|explained)\s*\??",
    re.IGNORECASE,
)
# A term of more words than this is a description, not a term.
MAX_TERM_WORDS = 3

SORTS = {
    "list": "List order",
    "newest": "Newest first",
    "title": "Title A to Z",
    "year": "Year, newest first",
}


@dataclass(frozen=True)
class ParsedQuery:
    text: str = ""
    words: tuple[str, ...] = ()
    phrases: tuple[str, ...] = ()
    excluded: tuple[str, ...] = ()
    any_of: bool = False
    # With `or`: the words in order, each group one word or those `or` joins, as websearch
    # reads them ("compute or memory bound": (compute, memory), (bound,)).
    any_of_groups: tuple[tuple[str, ...], ...] = ()
    # Set by the "search instead for" link of a corrected query: the words as typed, with no
    # correction, prefix or any-word match.
    exact: bool = False
    # The words that say what the query is about: without question filler ("how does X work"
    # requires X only; described.subject_words()).
    subject: tuple[str, ...] = ()
    # The subject's meaningful words, which an any-word match ranks when the all-words match is
    # thin (none with quotes or exclusions, which narrow on purpose, nor when exact), and the
    # stems of the text's meaningful words, every run of letters and digits its own word
    # ("sm_100" is "sm" and "100"): closeness in meaning, the nearest topics.
    meaningful: tuple[str, ...] = ()
    stems: tuple[str, ...] = ()
    # What a plain query may name a source by (names.names_asked()): the texts, and the parts
    # for when the whole names none.
    names: tuple[str, ...] = ()
    name_parts: tuple[str, ...] = ()
    # The term a definition question asks about ("what is a tensor core": tensor, core), whose
    # defining source comes first after the named ones (definitions.py); () for other queries.
    defines: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.words or self.phrases)

    @property
    def uses_operators(self) -> bool:
        """Quotes, exclusions or "or": the reader is being precise, so no guessing is added."""
        return bool(self.phrases or self.excluded or self.any_of)

    @property
    def may_widen(self) -> bool:
        """Whether the any-word match may add sources: not with quotes or exclusions, which
        narrow on purpose; but an `or` inside a described need ("limited by compute or memory
        bandwidth") is the reader's sentence, not a request for exactly these alternatives."""
        return not (self.phrases or self.excluded)

    @property
    def highlight_words(self) -> tuple[str, ...]:
        """The words a card marks: the subject's and the phrases'."""
        return tuple(dict.fromkeys([*self.subject, *(w for p in self.phrases for w in p.split())]))

    @functools.cached_property
    def identifier(self) -> WorkKeys | None:
        """The keys of the work the query names by an identifier (an arXiv id, a DOI, an ISBN,
        a repository's address...), or None: ordinary words are not identifiers."""
        text = self.text.strip()
        if not text or len(text) > 2000 or " " in text.removeprefix("arXiv: "):
            return None
        try:
            keys = work_keys(text)
        except InvalidURL:
            return None  # words, not an identifier
        return keys or None


def clean_query_text(raw: str | None) -> tuple[str, bool]:
    """The query as it will be searched, and whether it was cut: control characters out,
    whitespace collapsed, capped at MAX_QUERY_LENGTH."""
    text = " ".join(CONTROL.sub(" ", raw or "").split())
    return text[:MAX_QUERY_LENGTH].strip(), len(text) > MAX_QUERY_LENGTH


def parse_query(text: str, *, exact: bool = False) -> ParsedQuery:
    """Words, "quoted phrases", -exclusions and `or`, reduced to plain word characters, and what
    later stages read from them.

    Everything that is not a word character is dropped here, so `&|!:*()` and quotes can never
    reach tsquery syntax, and unbalanced quotes simply run to the end of the query.
    """
    words, phrases, excluded, any_of, groups = _split(text)
    unique = tuple(dict.fromkeys(words))[:MAX_WORDS]
    plain = not (phrases or excluded or any_of)
    subject = subject_words(unique)
    texts, parts = names_asked(text, unique) if plain else ([], [])
    defines = defined_term(text) if plain and not exact else ()
    if defines:
        # "what is cutlass" names CUTLASS, which comes before the glossary that defines it.
        texts.append(" ".join(defines))
    meaningful = meaningful_words(subject)
    return ParsedQuery(
        text=text,
        words=unique,
        phrases=tuple(phrases)[:MAX_WORDS],
        excluded=tuple(excluded)[:MAX_WORDS],
        any_of=any_of,
        any_of_groups=tuple(tuple(group) for group in groups)[:MAX_WORDS] if any_of else (),
        exact=exact,
        subject=subject if plain else unique,
        meaningful=meaningful if (not (phrases or excluded) and not exact) else (),
        stems=tuple(query_stems(text)),
        names=tuple(texts),
        name_parts=tuple(parts),
        defines=defines,
    )


def _split(text: str) -> tuple[list[str], list[str], list[str], bool, list[list[str]]]:
    """The query's words, "phrases", -exclusions, whether `or` joins any, and the groups it
    joins, in the order the reader typed them."""
    words: list[str] = []
    phrases: list[str] = []
    excluded: list[str] = []
    any_of = False
    # The words and phrases in order, those `or` joins in one group ("a b or c": [a], [b, c]).
    groups: list[list[str]] = []
    joined = False
    for negated, phrase, bare in TOKEN.findall(text):
        if bare:
            if bare.lower() == "or" and words:
                any_of = joined = True
                continue
            negated, phrase = bare.startswith("-") and len(bare) > 1, bare
        tokens = [w.lower() for w in WORD.findall(phrase)]
        if not tokens:
            continue
        if negated:
            excluded.append(" ".join(tokens))
            joined = False
            continue
        if bare or len(tokens) == 1:
            words.extend(tokens)
            items = tokens
        else:
            phrases.append(" ".join(tokens))
            items = [phrases[-1]]
        if joined and groups:
            groups[-1].append(items.pop(0))
        groups.extend([item] for item in items)
        joined = False
    return words, phrases, excluded, any_of, groups


def defined_term(text: str) -> tuple[str, ...]:
    """The words of the one term a definition question asks about, or () when the text is
    not one: no filler in the term (not "the difference between…", "the best way to…", nor
    a second clause "…and how…"), and at most MAX_TERM_WORDS words besides stop words."""
    found = DEFINITION.fullmatch(text.strip())
    if found is None:
        return ()
    term = tuple(w.lower() for w in WORD.findall(found["term"] or found["before"]))
    subject = [w for w in term if w not in STOP_WORDS]
    if not subject or len(subject) > MAX_TERM_WORDS or set(term) & FILLER:
        return ()
    return term


@dataclass
class SearchParams:
    q: str = ""
    topics: list[Topic] = field(default_factory=list)  # all required
    tier: Tier | None = None
    kind: str = ""
    reading_list: ReadingList | None = None
    year_from: int | None = None
    year_to: int | None = None
    sort: str = ""
    page: int = 1
    exact: bool = False  # search the words as typed, without typo correction

    @functools.cached_property
    def query(self) -> ParsedQuery:
        """The query, parsed once: every later stage reads this, never `q` again."""
        return parse_query(self.q, exact=self.exact)

    @property
    def year_text(self) -> str:
        if self.year_from is None:
            return ""
        if self.year_from == self.year_to:
            return str(self.year_from)
        return f"{self.year_from}-{self.year_to}"

    @property
    def filter_count(self) -> int:
        chosen = (self.tier, self.kind, self.reading_list, self.year_from is not None)
        return len(self.topics) + sum(bool(value) for value in chosen)

    @property
    def has_filters(self) -> bool:
        return bool(self.filter_count)


def chosen_sort(params: SearchParams) -> str:
    """The order the page uses: best match when searching, the lists' own order when browsing."""
    sort = params.sort or ("relevance" if params.query else "list")
    return "list" if sort == "relevance" and not params.query else sort
