"""What the reader asked for: the query they typed, and the filters and order the page carries."""

import re
from dataclasses import dataclass, field

from catalog.models import ReadingList, Tier, Topic

MAX_QUERY_LENGTH = 200
MAX_WORDS = 16

TOKEN = re.compile(r'(-?)"([^"]*)"?|(\S+)')
WORD = re.compile(r"\w+")
# "FlashAttention-3": a word joined to another by punctuation, indexed as one token too.
JOINED_WORD = re.compile(r"\w[^\w\s\"]+\w")
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")

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
    # The query as searched after typo correction, when a word was replaced ("" if none).
    corrected: str = ""
    # ((source id, name level), ...): the sources the query names (see names.py), and those
    # that all but its first or last word names ("pmpp book"), which a search that finds
    # nothing suggests.
    named: tuple[tuple[int, float], ...] = ()
    named_in_part: tuple[tuple[int, float], ...] = ()
    # Whether the page also ranks the any-word match (described.py): the all-words match was
    # thin, so some results have only some of the words.
    partial: bool = False
    # How many sources have every word (counted up to described.COMMON), when `partial`.
    complete: int = 0
    # ((source id, any-word score), ...): the any-word matches where they are scored in Python.
    described: tuple[tuple[int, float], ...] = ()

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
        return tuple(dict.fromkeys([*self.words, *(w for p in self.phrases for w in p.split())]))


def clean_query_text(raw: str | None) -> tuple[str, bool]:
    """The query as it will be searched, and whether it was cut: control characters out,
    whitespace collapsed, capped at MAX_QUERY_LENGTH."""
    text = " ".join(CONTROL.sub(" ", raw or "").split())
    return text[:MAX_QUERY_LENGTH].strip(), len(text) > MAX_QUERY_LENGTH


def parse_query(text: str) -> ParsedQuery:
    """Words, "quoted phrases", -exclusions and `or`, reduced to plain word characters.

    Everything that is not a word character is dropped here, so `&|!:*()` and quotes can never
    reach tsquery syntax, and unbalanced quotes simply run to the end of the query.
    """
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
    return ParsedQuery(
        text=text,
        words=tuple(dict.fromkeys(words))[:MAX_WORDS],
        phrases=tuple(phrases)[:MAX_WORDS],
        excluded=tuple(excluded)[:MAX_WORDS],
        any_of=any_of,
        any_of_groups=tuple(tuple(group) for group in groups)[:MAX_WORDS] if any_of else (),
    )


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


def chosen_sort(params: SearchParams, query: ParsedQuery) -> str:
    """The order the page uses: best match when searching, the lists' own order when browsing."""
    sort = params.sort or ("relevance" if query else "list")
    return "list" if sort == "relevance" and not query else sort
