"""The rank stage on databases without full-text search (SQLite): sources the query names
first, then those with more query words in the title or aliases (aliases are names too, and
often the only place that names the mechanism a source introduced), the reader's own words
before their equivalent forms, then the prior; or, when the any-word match is ranked, the
scores the match stage computed (described.fused_rank())."""

from django.db.models import Case, FloatField, IntegerField, Q, QuerySet, Value, When

from catalog.models import Source
from catalog.querysets import SourceQuerySet

from .equivalents import alternatives
from .facets import JOIN_COUNTS, MATCH_COLUMNS
from .ranking import ORDERINGS, prior_expression
from .shared import Ranked
from .sqlite_match import ContainsMatched, all_words


def by_relevance(matched: ContainsMatched) -> SourceQuerySet:
    query, matches = matched.query, matched.rows
    name_hits = sum(
        (
            Case(
                When(Q(title__icontains=text) | Q(aliases__icontains=text), then=1),
                default=0,
                output_field=IntegerField(),
            )
            for text in (*query.subject, *query.phrases)
        ),
        Value(0),
    )
    named = Case(
        *(When(pk=pk, then=Value(level)) for pk, level in matched.named),
        default=Value(0.0),
        output_field=FloatField(),
    )
    prior = prior_expression(primary=~Q(basis=Source.Basis.NONE))
    # The words side by side, as a source's keyword or summary has them ("prefix caching"):
    # PostgreSQL's rank rewards their proximity, so a source that many words match in scattered
    # places does not push it off the page.
    phrase = " ".join(query.subject)
    together = (
        Case(
            When(Q(keywords__icontains=phrase) | Q(summary__icontains=phrase), then=1),
            default=0,
            output_field=IntegerField(),
        )
        if len(query.subject) >= 2
        else Value(0)
    )
    if not matched.described:
        # The reader's own words before forms equivalent to them ("gemm" before "matmul").
        everything = Source.objects.using(matches.db).all()
        as_typed = Case(
            When(pk__in=all_words(everything, query, forms=False).values("pk"), then=1),
            default=0,
            output_field=IntegerField(),
        )
        return matches.alias(
            named=named,
            name_hits=name_hits,
            together=together,
            as_typed=as_typed if alternatives(query.subject) else Value(1),
            prior=prior,
        ).order_by("-named", "-name_hits", "-together", "-as_typed", "-prior", "title", "pk")
    # described.fused_rank(): named sources, then every match by its score (the all-words
    # matches' bonus included), which holds the prior's nudge.
    described = Case(
        *(When(pk=pk, then=Value(score)) for pk, score in matched.described),
        default=Value(0.0),
        output_field=FloatField(),
    )
    return matches.alias(named=named, described=described, prior=prior).order_by(
        "-named", "-described", "-prior", "title", "pk"
    )


def ranked(matched: ContainsMatched, sort: str) -> Ranked:
    """The matches in the page's order; the facet statement counts them and the page's ids are
    read from the order."""
    rows = matched.rows
    if not isinstance(rows, SourceQuerySet):
        raise TypeError("the SQLite match is of sources")
    ordered: QuerySet[Source]
    if sort == "relevance":
        ordered = by_relevance(matched)
    elif sort == "list":
        ordered = rows.in_list_order()
    else:
        ordered = rows.order_by(*ORDERINGS[sort])
    return Ranked(
        ids=ordered.values_list("pk", flat=True),
        facet_rows=rows.values_list("pk", "tier_id", "kind", "year"),
        columns=MATCH_COLUMNS,
        set_counts=JOIN_COUNTS,
    )
