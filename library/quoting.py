"""The passage a reader brings to /save/: the text they selected when they ran the bookmarklet
(`quote`, with a little of the page's text before and after it, `prefix` and `suffix`), or the
text a phone's share sheet sends (`text`).

What arrives is tidied into a W3C text-quote selector: the exact words, and a few whole words on
either side, which is what a text fragment (`#:~:text=`) needs to find the passage again. A note's
quote and a thread's quoted passage both hold QUOTE_MAX characters; a longer selection is cut at
a whole word and the reader is told how much was kept.
"""

import re
from collections.abc import Callable
from dataclasses import dataclass

from django.http import QueryDict

# What a note's quote and a thread's quoted passage hold (tests hold the three equal).
QUOTE_MAX = 2_000
# The words kept on either side: enough for a browser to tell two equal passages apart.
CONTEXT_CHARS = 32
# The bookmarklet sends at most this much of a selection, then less while its address would
# grow past what the server reads (gunicorn.conf.py: limit_request_line).
SENT_MAX = QUOTE_MAX + 100
SENT_BYTES_MAX = 5_000
CONTEXT_SENT = 100
# Nothing longer than this is tidied: a hand-made address gains nothing from a longer one.
_READ_MAX = QUOTE_MAX * 4

_URL = re.compile(r"https?://\S+")
# Quotation marks a share sheet wraps a passage in (typographic single ones written out).
_QUOTES = "\"'“”«»„\u2018\u2019"


@dataclass(frozen=True)
class Passage:
    exact: str
    prefix: str = ""
    suffix: str = ""
    # How many characters the reader selected, when more than the quote holds; 0 otherwise.
    selected: int = 0

    @property
    def cut(self) -> bool:
        return self.selected > 0

    @property
    def notice(self) -> str:
        if not self.cut:
            return ""
        return (
            f"You selected {self.selected:,} characters; a quote holds {QUOTE_MAX:,}. "
            f"The quote below is the first {len(self.exact):,}, up to a whole word: to quote "
            "what follows, select it and use the bookmarklet again."
        )

    def as_markdown(self, title: str, url: str) -> str:
        """The quote as a Markdown blockquote with the page it came from, to keep by hand."""
        lines = "\n".join(f"> {line}".rstrip() for line in self.exact.split("\n"))
        return f"{lines}\n\n— [{title or url}]({url})"


def _tidy(text: str) -> str:
    """One space between words, one line break between lines, one empty line between
    paragraphs: what a selection copies from a page's layout is not part of the words."""
    lines = [" ".join(line.split()) for line in text[:_READ_MAX].splitlines()]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def _utf16_length(text: str) -> int:
    # The bookmarklet counts as JavaScript does, in UTF-16 units.
    return len(text.encode("utf-16-le")) // 2


def _words_before(text: str, limit: int = CONTEXT_CHARS, *, whole: bool = True) -> str:
    """The last whole words of `text` within `limit` characters; `whole` says whether its first
    word is complete (the bookmarklet's few characters may start inside one)."""
    words = text.split()
    if whole and len(" ".join(words)) <= limit:
        return " ".join(words)
    kept: list[str] = []
    for word in reversed(words[0 if whole else 1 :]):
        if len(" ".join([word, *kept])) > limit:
            break
        kept.insert(0, word)
    return " ".join(kept)


def _words_after(text: str, limit: int = CONTEXT_CHARS, *, whole: bool = True) -> str:
    """The first whole words of `text` within `limit` characters; `whole` says whether its last
    word is complete (the bookmarklet's few characters may end inside one)."""
    backwards = " ".join(reversed(text.split()))
    return " ".join(reversed(_words_before(backwards, limit, whole=whole).split()))


def _context(raw: str, words: Callable[..., str]) -> str:
    # The bookmarklet sends CONTEXT_SENT characters where the page has that many: less means
    # the page began or ended there, and the outermost word is whole.
    return words(_tidy(raw), whole=_utf16_length(raw) < CONTEXT_SENT)


def _at_a_word(text: str, limit: int) -> tuple[str, str]:
    """`text` cut to at most `limit` characters at a word's end, and what was cut off."""
    if len(text) <= limit:
        return text, ""
    head = text[: limit + 1]
    match = re.search(r"\s\S*$", head)
    cut = match.start() if match and match.start() > limit // 2 else limit
    return text[:cut].rstrip(), text[cut:]


def _shared_text(text: str) -> tuple[str, str]:
    """A share sheet's `text`: the passage, and the page's address when it came in the text
    (phones often send "“passage” https://…" with no `url` of its own)."""
    found = _URL.findall(text)
    url = found[-1] if found else ""
    if url:
        text = text.replace(url, " ")
    return _tidy(text).strip(_QUOTES + " \n"), url


def read_passage(params: QueryDict) -> tuple[Passage | None, str]:
    """The passage /save/ was given, if any, and an address found in a share sheet's text."""
    shared_url = ""
    raw = params.get("quote", "")
    if raw.strip():
        exact = _tidy(raw)
    else:
        raw = params.get("text", "")
        exact, shared_url = _shared_text(raw)
    if not exact:
        return None, shared_url
    try:
        selected = int(params.get("selected", ""))
    except ValueError:
        selected = 0
    # The bookmarklet sent less than the reader selected: the last word may be cut.
    arrived_cut = selected > _utf16_length(raw)
    kept, rest = _at_a_word(exact, QUOTE_MAX)
    if arrived_cut and not rest:
        kept, rest = _at_a_word(exact, len(exact) - 1)
    if rest:
        suffix = _words_after(rest, whole=not arrived_cut)
    else:
        suffix = _context(params.get("suffix", ""), _words_after)
    return (
        Passage(
            exact=kept,
            prefix=_context(params.get("prefix", ""), _words_before),
            suffix=suffix,
            selected=max(selected, len(exact)) if rest else 0,
        ),
        shared_url,
    )
