"""The page stage on PostgreSQL: the cards' snippets and marked titles by ts_headline, in the
same statement as the cards, and the closest titles by trigram when nothing matches."""

from typing import TypedDict

from django.contrib.postgres.search import SearchHeadline, TrigramWordSimilarity

from catalog.models import Source

from .document import LANGUAGE
from .postgres_match import PostgresMatched, widening_query
from .shared import (
    SUGGESTIONS,
    Suggestion,
    cards,
    plain_cards,
    set_card_text,
    text_annotation,
)
from .snippets import (
    FRAGMENT_DELIMITER,
    SNIPPET_WORDS,
    START_SEL,
    STOP_SEL,
    first_sentence,
    headline_snippet,
    marked_snippet,
)


class HeadlineMarkers(TypedDict):
    start_sel: str
    stop_sel: str
    config: str


def result_cards(ids: list[int], matched: PostgresMatched, using: str) -> list[Source]:
    """The page's cards; with a query, their snippets come in the same statement."""
    if not matched or matched.tsquery is None:
        return plain_cards(ids, using)
    tsquery = matched.tsquery
    if matched.terms:
        tsquery = tsquery | widening_query(matched.terms)
    marked = HeadlineMarkers(start_sel=START_SEL, stop_sel=STOP_SEL, config=LANGUAGE)
    sources = cards(
        ids,
        using,
        headline=SearchHeadline(
            "summary",
            tsquery,
            max_words=SNIPPET_WORDS // 2,
            min_words=SNIPPET_WORDS // 4,
            # ts_headline's ShortWord is a number of characters; django-stubs types it str.
            short_word=2,  # type: ignore[arg-type]
            max_fragments=2,
            fragment_delimiter=FRAGMENT_DELIMITER,
            **marked,
        ),
        title_headline=SearchHeadline("title", tsquery, highlight_all=True, **marked),
    )
    for source in sources:
        summary_headline = text_annotation(source, "headline") or ""
        set_card_text(
            source,
            snippet=headline_snippet(summary_headline, source.summary)
            or first_sentence(source.summary),
            marked_title=marked_snippet(text_annotation(source, "title_headline") or ""),
        )
    return sources


def suggestions(matched: PostgresMatched, using: str) -> list[Suggestion]:
    """The titles closest to the query by trigram word similarity."""
    text = matched.query.text
    rows = (
        Source.objects.using(using)
        .published()
        .filter(title__trigram_word_similar=text)
        .annotate(similarity=TrigramWordSimilarity(text, "title"))
        .order_by("-similarity", "title")
        .values_list("title", "slug")[:SUGGESTIONS]
    )
    return [Suggestion(title, slug) for title, slug in rows]
