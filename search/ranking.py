"""Priors both backends blend with the text match: what a reader trusts first.

For a broad word many titles match about equally; the reader then wants the Start-here and core
sources, the primary source, and the older original before the narrower works that followed
it. The prior multiplies the text rank (PostgreSQL) or breaks ties between equal title matches
(SQLite). A source the query names (names.py) comes before all of them.
"""

from django.db.models import Case, F, FloatField, Q, Subquery, Value, When
from django.db.models.expressions import Combinable, CombinedExpression
from django.db.models.functions import Cast, Coalesce, Greatest

from catalog.models import Tier

# About twice as much for Start-here and core as for the rest: a narrower title that merely
# mentions a broad word ("memory", "scheduling") must not outrank the core source that names the
# mechanism in its aliases, while a source that matches in its title where the trusted ones match
# only in their summaries (a far weaker text rank) still comes first.
TIER_PRIORS = {
    Tier.START_HERE: 2.2,
    Tier.CORE: 2.0,
    Tier.FRONTIER: 1.0,
    Tier.FURTHER_READING: 0.8,
}
PRIMARY_PRIOR = 1.3
# Older by a year is worth 0.3%: enough to order equal matches, never a weak match above a
# strong one. Counted from a fixed year so that ranks do not drift with the calendar.
YEAR_WEIGHT = 0.003
REFERENCE_YEAR = 2040
# Orders that do not depend on the query; sources and search entries both have these fields.
ORDERINGS: dict[str, tuple[str | Combinable, ...]] = {
    "newest": ("-created", "-pk"),
    "title": ("title", "pk"),
    "year": (F("year").desc(nulls_last=True), "title", "pk"),
}


def double(number: float) -> Cast:
    """A float constant typed double precision: as a bare literal PostgreSQL reads it as
    numeric, and numeric arithmetic on every match doubles the cost of ranking a common word."""
    return Cast(Value(number), FloatField())


def prior_expression(
    tier_ids: dict[str, int] | None = None, primary: Q | None = None
) -> CombinedExpression:
    """tier prior x primary prior x age, for rows with `tier_id` and `year` (entries, sources).

    With `tier_ids` ({slug: id}) the tiers are compared by id, which costs next to nothing per
    row; without, each tier is a subquery (fine for small catalogs).
    """
    if tier_ids is not None:
        conditions = {slug: Q(tier_id=pk) for slug, pk in tier_ids.items()}
    else:
        conditions = {
            slug: Q(tier_id__in=Subquery(Tier.objects.filter(slug=slug).values("pk")))
            for slug in TIER_PRIORS
        }
    tier = Case(
        *(
            When(conditions[slug], then=double(prior))
            for slug, prior in TIER_PRIORS.items()
            if prior != 1.0 and slug in conditions
        ),
        default=double(1.0),
        output_field=FloatField(),
    )
    primary = primary or Q(is_primary=True)
    primary_prior = Case(
        When(primary, then=double(PRIMARY_PRIOR)), default=double(1.0), output_field=FloatField()
    )
    age = Greatest(Value(0), Value(REFERENCE_YEAR) - Coalesce(F("year"), Value(REFERENCE_YEAR)))
    return tier * primary_prior * (double(1.0) + double(YEAR_WEIGHT) * age)
