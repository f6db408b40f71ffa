"""Snippets and marked titles: catalog text escaped, matched words wrapped in <mark>."""

import re
from collections.abc import Iterable
from html import escape

from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

SNIPPET_WORDS = 30
ELLIPSIS = "…"
# Between the fragments of one ts_headline; split on again to place each in the summary.
FRAGMENT_DELIMITER = "\x04"
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9“\"(])")
# Markers ts_headline puts around matches; control characters never occur in catalog text,
# so the whole headline can be escaped first and the markers turned into <mark> afterwards.
START_SEL, STOP_SEL = "\x02", "\x03"
# Every other control character (those parsing.CONTROL takes out of a query), dropped.
OTHER_CONTROL = re.compile(r"[\x00\x01\x04-\x08\x0b\x0c\x0e-\x1f\x7f]")
# Django's escape() is html.escape() marked safe, behind a check for lazy text: the functions
# here call html.escape() on plain text and mark their whole result safe once.


def marked_snippet(headline: str) -> SafeString | str:
    """Escape a ts_headline result, then turn its match markers into <mark> ("" if none)."""
    if START_SEL not in headline:
        return ""
    escaped = escape(OTHER_CONTROL.sub("", headline))
    # escape() leaves the markers alone, so every other character of the data is escaped here.
    return mark_safe(escaped.replace(START_SEL, "<mark>").replace(STOP_SEL, "</mark>"))


def words_pattern(words: Iterable[str]) -> re.Pattern[str] | None:
    """One pattern matching any of the words, longest first; None when no word is worth it."""
    worth_marking = [w for w in words if len(w) > 1]  # marking every "a" helps nobody
    if not worth_marking:
        return None
    alternatives = "|".join(re.escape(w) for w in sorted(worth_marking, key=len, reverse=True))
    return re.compile(alternatives, re.IGNORECASE)


def marked_words(text: str, pattern: re.Pattern[str]) -> SafeString | str:
    """The text escaped, with every match of pattern wrapped in <mark> ("" if none)."""
    pieces: list[str] = []
    last = 0
    for found in pattern.finditer(text):
        pieces.append(escape(text[last : found.start()]))
        pieces.append(format_html("<mark>{}</mark>", found.group()))
        last = found.end()
    if not last:
        return ""
    pieces.append(escape(text[last:]))
    return mark_safe("".join(str(p) for p in pieces))


def plain_snippet(text: str, pattern: re.Pattern[str] | None) -> SafeString | str:
    """A window of the summary around the first match, matched words wrapped in <mark>."""
    if not text or pattern is None:
        return ""
    first = pattern.search(text)
    if not first:
        return ""
    tokens = text.split()
    start = max(len(text[: first.start()].split()) - 8, 0)
    window = " ".join(tokens[start : start + SNIPPET_WORDS])
    prefix = "… " if start else ""
    suffix = " …" if start + SNIPPET_WORDS < len(tokens) else ""
    return mark_safe(prefix + marked_words(window, pattern) + suffix)


def first_sentence(text: str) -> str:
    """The summary's first sentence (at most SNIPPET_WORDS words, "…" where cut): the snippet of
    a source whose summary does not contain the query."""
    sentence = SENTENCE_END.split(text.strip(), maxsplit=1)[0]
    words = sentence.split()
    if len(words) > SNIPPET_WORDS:
        return " ".join(words[:SNIPPET_WORDS]) + " " + ELLIPSIS
    return sentence


def _word_start(text: str, index: int) -> int:
    while index > 0 and not text[index - 1].isspace():
        index -= 1
    return index


def _word_end(text: str, index: int) -> int:
    while index < len(text) and not text[index].isspace():
        index += 1
    return index


def headline_snippet(headline: str, text: str) -> SafeString | str:
    """ts_headline fragments placed back in `text`: each widened to whole words, and "…"
    wherever text is left out (before, between and after the fragments). "" if no match."""
    if START_SEL not in headline:
        return ""
    pieces: list[str] = []
    position = 0
    for fragment in headline.split(FRAGMENT_DELIMITER):
        plain = fragment.replace(START_SEL, "").replace(STOP_SEL, "").strip()
        found = text.find(plain, position) if plain else -1
        if found < 0:
            # Not where expected (should not happen): show the fragment, marked as a cut.
            pieces.append((ELLIPSIS + " " if pieces or position else "") + marked_snippet(fragment))
            continue
        end = found + len(plain)
        start, stop = _word_start(text, found), _word_end(text, end)
        if text[position:start].strip():
            pieces.append(f" {ELLIPSIS} " if pieces else f"{ELLIPSIS} ")
        elif pieces:
            pieces.append(" ")
        pieces.append(escape(text[start:found]))
        pieces.append(marked_snippet(fragment.strip()) or escape(plain))
        pieces.append(escape(text[end:stop]))
        position = stop
    rest = text[position:].strip()
    if rest:
        # A sentence's closing punctuation is shown rather than replaced by "…".
        pieces.append(escape(rest) if not any(c.isalnum() for c in rest) else " " + ELLIPSIS)
    return mark_safe("".join(str(piece) for piece in pieces))
