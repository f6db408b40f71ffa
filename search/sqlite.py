"""The backend for databases without full-text search (SQLite): every word required, matches in
the title or aliases first, closest titles by difflib when nothing matches."""

import difflib
from dataclasses import replace

from django.db.models import Case, FloatField, IntegerField, Q, Value, When

from catalog.models import Source, Topic
from catalog.querysets import SourceQuerySet

from .backend import (
    SUGGESTIONS,
    Backend,
    Suggestion,
    cards,
    narrowed,
    plain_cards,
    set_card_text,
)
from .described import STOP_WORDS, meaningful_words, subject_words
from .equivalents import alternatives
from .facets import JOIN_COUNTS, MATCH_COLUMNS, Facets, facet_counts
from .names import named_sources, names_asked
from .parsing import ParsedQuery, SearchParams
from .ranking import prior_expression
from .snippets import first_sentence, marked_words, plain_snippet, words_pattern
from .sqlite_described import contains_word, described_scores

# Words this short are whole tokens (or their plural) rather than parts of longer words.
SHORT_WORD = 3


class ContainsBackend(Backend[SourceQuerySet]):
    """Every word must appear somewhere; sources with the words in their title or aliases come
    first."""

    FIELDS = ("title", "authors", "aliases", "venue", "summary", "keywords")

    def prepare(
        self, query: ParsedQuery, using: str, *, exact: bool = False, widen_later: bool = False
    ) -> ParsedQuery:
        if not query or not query.may_widen:
            return query
        plain = not query.uses_operators
        texts, parts = names_asked(query.text, query.words) if plain else ([], [])
        found = named_sources(texts, using, parts=parts)
        # "how does speculative decoding work" requires the subject, not the filler.
        subject = replace(query, words=subject_words(query.words)) if plain else query
        published = Source.objects.using(using).published()
        complete, scores = described_scores(
            published, meaningful_words(subject.words), self.match(published, subject)
        )
        return replace(
            subject,
            # "hf transformers": the source all but one word names leads the partial matches
            # when no source has every word.
            named=tuple(
                (found.levels or (found.in_part if scores and not complete else {})).items()
            ),
            named_in_part=tuple(found.in_part.items()),
            partial=bool(scores),
            complete=complete,
            described=tuple(scores.items()),
        )

    def matches(self, params: SearchParams, query: ParsedQuery, using: str) -> SourceQuerySet:
        """The published sources the page shows, before ordering."""
        sources = narrowed(Source.objects.using(using).published(), params, in_topic=self._in_topic)
        if not query:
            return sources
        matched = self.match(sources, query)
        if query.described:
            # "flash attention hopper" found FlashAttention-3: FlashAttention without the word
            # that narrowed it is what the reader refined away.
            refined = {pk for pk, _ in query.named_in_part} if query.complete else set()
            widened = Q(pk__in=[pk for pk, _ in query.described if pk not in refined])
            matched = sources.filter(Q(pk__in=matched.values("pk")) | widened)
        if query.named:
            # A name that is not in the text (an acronym of the title) still finds its source.
            named = sources.filter(pk__in=[pk for pk, _ in query.named])
            matched = sources.filter(Q(pk__in=matched.values("pk")) | Q(pk__in=named.values("pk")))
        return matched

    @staticmethod
    def _in_topic(topic: Topic) -> Q:
        # A subquery, not a join: joins would repeat rows and break the facet counts.
        tagged = Source.topics.through.objects.filter(Q(topic=topic) | Q(topic__parent=topic))
        return Q(pk__in=tagged.values("source_id"))

    def in_list_order(self, matches: SourceQuerySet) -> SourceQuerySet:
        return matches.in_list_order()

    def facet_counts(
        self, matches: SourceQuerySet, sort: str, query: ParsedQuery, page: int
    ) -> Facets:
        columns = ("pk", "tier_id", "kind", "year")
        return facet_counts(matches.values_list(*columns), MATCH_COLUMNS, JOIN_COUNTS)

    def _contains(self, text: str, *, whole: bool = False) -> Q:
        # A phrase is searched as written; a word that is a format or a chip as a whole token.
        condition, in_topic = Q(), Q(topic__name__icontains=text)
        if " " in text:
            for name in self.FIELDS:
                condition |= Q(**{f"{name}__icontains": text})
        else:
            condition = contains_word(self.FIELDS, text, whole=whole)
            in_topic = contains_word(("topic__name",), text, whole=whole)
        topics = Source.topics.through.objects.filter(in_topic)
        return condition | Q(pk__in=topics.values("source_id"))

    def _contains_any(self, word: str, forms: tuple[str, ...]) -> Q:
        """`word` or a form equivalent to it (equivalents.py); a phrase form as written or
        hyphenated ("key value", "key-value"). A word of three letters or fewer is a whole token,
        as PostgreSQL reads it: "rag" is not the one in "outrageously", nor "sm" in "small"."""
        condition = self._contains(word, whole=len(word) <= SHORT_WORD)
        for form in forms:
            if " " in form:
                condition |= self._contains(form) | self._contains(form.replace(" ", "-"))
            else:
                condition |= self._contains(form, whole=True)
        return condition

    def match(
        self, sources: SourceQuerySet, query: ParsedQuery, *, forms: bool = True
    ) -> SourceQuerySet:
        """The sources with every word (or a form of it, with `forms`), or any with `or`."""
        equivalent: dict[str, tuple[str, ...]] = (
            {} if query.uses_operators or not forms else alternatives(query.words)
        )
        groups = [self._contains_any(word, equivalent.get(word, ())) for word in query.words]
        groups += [self._contains(text) for text in query.phrases]
        if query.any_of:
            # As websearch reads `or`: the words and phrases it joins are alternatives, each
            # group of them required, stop words ignored.
            groups = []
            for joined in query.any_of_groups:
                condition = Q()
                for text in (t for t in joined if t not in STOP_WORDS):
                    condition |= self._contains(text)
                groups += [condition] if condition else []
        for group in groups:
            sources = sources.filter(group)
        for text in query.excluded:
            sources = sources.exclude(self._contains(text))
        return sources

    def by_relevance(self, matches: SourceQuerySet, query: ParsedQuery) -> SourceQuerySet:
        # Words in the title or the aliases: a source's aliases are names too, and often the
        # only place that names the mechanism it introduced (Orca's "iteration-level scheduling").
        name_hits = sum(
            (
                Case(
                    When(Q(title__icontains=text) | Q(aliases__icontains=text), then=1),
                    default=0,
                    output_field=IntegerField(),
                )
                for text in (*query.words, *query.phrases)
            ),
            Value(0),
        )
        named = Case(
            *(When(pk=pk, then=Value(level)) for pk, level in query.named),
            default=Value(0.0),
            output_field=FloatField(),
        )
        if not query.described:
            # The reader's own words before forms equivalent to them ("gemm" before "matmul").
            everything = Source.objects.using(matches.db).all()
            as_typed = Case(
                When(pk__in=self.match(everything, query, forms=False).values("pk"), then=1),
                default=0,
                output_field=IntegerField(),
            )
            return matches.alias(
                named=named,
                name_hits=name_hits,
                as_typed=as_typed if alternatives(query.words) else Value(1),
                prior=prior_expression(primary=~Q(basis=Source.Basis.NONE)),
            ).order_by("-named", "-name_hits", "-as_typed", "-prior", "title", "pk")
        # described.fused_rank(): named sources, then every match by its score (the all-words
        # matches' bonus included), which holds the prior's nudge.
        described = Case(
            *(When(pk=pk, then=Value(score)) for pk, score in query.described),
            default=Value(0.0),
            output_field=FloatField(),
        )
        return matches.alias(
            named=named,
            described=described,
            prior=prior_expression(primary=~Q(basis=Source.Basis.NONE)),
        ).order_by("-named", "-described", "-prior", "title", "pk")

    def result_cards(self, ids: list[int], query: ParsedQuery, using: str) -> list[Source]:
        if not query:
            return plain_cards(ids, using)
        sources = cards(ids, using)
        pattern = words_pattern(query.highlight_words)
        for source in sources:
            set_card_text(
                source,
                snippet=plain_snippet(source.summary, pattern) or first_sentence(source.summary),
                marked_title=marked_words(source.title, pattern) if pattern else "",
            )
        return sources

    def suggestions(self, query: ParsedQuery, using: str) -> list[Suggestion]:
        titles = dict(Source.objects.using(using).published().values_list("title", "slug"))
        by_lower = {title.lower(): title for title in titles}
        close = difflib.get_close_matches(
            query.text.lower(), list(by_lower), n=SUGGESTIONS, cutoff=0.4
        )
        return [Suggestion(by_lower[t], titles[by_lower[t]]) for t in close]
