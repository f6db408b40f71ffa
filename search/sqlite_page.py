"""The page stage on databases without full-text search (SQLite): snippets are windows of the
summary around the first match, marked in Python; "Did you mean" uses difflib over the titles."""

import difflib

from catalog.models import Source

from .shared import SUGGESTIONS, Matched, Suggestion, cards, plain_cards, set_card_text
from .snippets import first_sentence, marked_words, plain_snippet, words_pattern


def result_cards(ids: list[int], matched: Matched, using: str) -> list[Source]:
    if not matched:
        return plain_cards(ids, using)
    query = matched.query
    sources = cards(ids, using)
    pattern = words_pattern(query.highlight_words)
    for source in sources:
        set_card_text(
            source,
            snippet=plain_snippet(source.summary, pattern) or first_sentence(source.summary),
            marked_title=marked_words(source.title, pattern) if pattern else "",
        )
    return sources


def suggestions(matched: Matched, using: str) -> list[Suggestion]:
    titles = dict(Source.objects.using(using).published().values_list("title", "slug"))
    by_lower = {title.lower(): title for title in titles}
    close = difflib.get_close_matches(
        matched.query.text.lower(), list(by_lower), n=SUGGESTIONS, cutoff=0.4
    )
    return [Suggestion(by_lower[t], titles[by_lower[t]]) for t in close]
