"""Read rules for the catalog. Views ask these; they never filter by hand."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from django.db import models
from django.db.models import Aggregate, Count, Q

from .identity import NAMED_BY, WorkKeys, how_named

if TYPE_CHECKING:
    # Also named, quoted, in the QuerySet["..."] bases, which linters do not read as annotations.
    from .models import ReadingList, Source, Tier, Topic  # noqa: F401


def url_filter(field_name: str, keys: WorkKeys) -> Q:
    """The URL in any of its stored spellings, letter case aside (hosts and GitHub names
    ignore it, and readers retype it)."""
    match = Q(pk__in=[])
    for variant in keys.url_variants:
        match |= Q(**{f"{field_name}__iexact": variant})
    return match


def identity_filter(keys: WorkKeys) -> Q:
    """Sources sharing any key with the work: URL, arXiv id, DOI, ISBN or repository."""
    match = url_filter("url", keys)
    if keys.arxiv:
        match |= Q(arxiv_id=keys.arxiv)
    if keys.doi:
        match |= Q(doi=keys.doi)  # stored lower-case, so the index serves it
    if keys.isbn:
        match |= Q(isbn=keys.isbn)
    if keys.repository:
        match |= Q(repository__iexact=keys.repository)
    return match


PRIVATE = "private"
# Who may see a private source is decided by the app that keeps it (a team's own sources);
# the catalog only asks. With no rule registered nobody sees one: the lookups fail closed.
_private_rules: list[Callable[[Any], Q]] = []


def register_private_rule(rule: Callable[[Any], Q]) -> None:
    """`rule(user)` is a filter on sources naming the private ones `user` may see (an anonymous
    visitor included); called from the owning app's AppConfig.ready()."""
    if rule not in _private_rules:
        _private_rules.append(rule)


# Which teams' shared rows (notes, threads) may concern a private source: only those whose every
# member may see it. Registered beside the rule; with none registered, no team may.
_private_audiences: list[Callable[[Any], Iterable[int]]] = []


def register_private_audience(audience: Callable[[Any], Iterable[int]]) -> None:
    if audience not in _private_audiences:
        _private_audiences.append(audience)


# Which private sources belong to a team: `rule(team_id)` names them. Registered beside the rule;
# with none registered, a team owns none (team tools such as the session planner find none).
_private_team_rules: list[Callable[[int], Q]] = []


def register_private_team_rule(rule: Callable[[int], Q]) -> None:
    if rule not in _private_team_rules:
        _private_team_rules.append(rule)


def private_sources_of_team(team_id: int) -> Q:
    """A filter on sources naming the private ones team `team_id` keeps (and nobody else's)."""
    match = Q(pk__in=[])
    for rule in _private_team_rules:
        match |= rule(team_id)
    return Q(status=PRIVATE) & match


def private_audience(source: Source) -> set[int] | None:
    """The ids of the teams that may share notes and threads on `source`; None for a source
    that is not private (any team may)."""
    if source.status != PRIVATE:
        return None
    return {team for audience in _private_audiences for team in audience(source)}


def visible_source(user: Any, field: str = "source") -> Q:
    """A filter on rows that name a source through `field`: the ones whose source `user` may
    see. For listings of rows (bookmarks, notes) shown to `user`."""
    public = ~Q(**{f"{field}__status": PRIVATE})
    return public | Q(**{f"{field}__in": models.Subquery(_private_ids(user))})


def _private_ids(user: Any) -> models.QuerySet[Any]:
    from .models import Source

    return Source.all_objects.filter(private_sources_visible_to(user)).values("pk")


def private_sources_visible_to(user: Any) -> Q:
    match = Q(pk__in=[])
    for rule in _private_rules:
        match |= rule(user)
    return Q(status=PRIVATE) & match


class SourceQuerySet(models.QuerySet["Source"]):
    def published(self) -> SourceQuerySet:
        return self.filter(status="published")

    def visible_to(self, user: Any) -> SourceQuerySet:
        """Every source but the private ones `user` may not see (call it on all_objects)."""
        return self.filter(~Q(status=PRIVATE) | private_sources_visible_to(user))

    def identified_by(self, keys: WorkKeys) -> list[tuple[Source, str]]:
        """The sources the work's keys name, with how, most specific match first (one query)."""
        found = [(source, how_named(keys, source)) for source in self.filter(identity_filter(keys))]
        return sorted(
            ((source, how) for source, how in found if how),
            key=lambda pair: (NAMED_BY.index(pair[1]), pair[0].pk),
        )

    def topic_names(self) -> dict[int, list[str]]:
        """{source id: its topics' names} for these sources, in one query (the texts related
        sources and search's latent index are built from)."""
        links = self.model.topics.through.objects.using(self.db).filter(
            source__in=self.values("pk")
        )
        names: dict[int, list[str]] = {}
        for source_id, name in links.values_list("source_id", "topic__name"):
            names.setdefault(source_id, []).append(name)
        return names

    def for_cards(self) -> SourceQuerySet:
        """Everything a source card shows (cards show no topics), in one query."""
        return self.select_related("tier")

    def in_topic(self, topic: Topic) -> SourceQuerySet:
        """A topic includes its sub-topics."""
        return self.filter(Q(topics=topic) | Q(topics__parent=topic)).distinct()

    def in_list_order(self) -> SourceQuerySet:
        """Sources ordered by their first appearance in the first reading list that cites them."""
        return self.alias(
            first_list=models.Min("entries__section__reading_list__position"),
            first_section=models.Min("entries__section__position"),
            first_position=models.Min("entries__position"),
        ).order_by("first_list", "first_section", "first_position", "title")

    def newest(self) -> SourceQuerySet:
        return self.order_by("-created", "-pk")

    def sharing_topics_with(self, source: Source, topic_ids: Iterable[int]) -> SourceQuerySet:
        """Other published sources in the same topics, most topics in common first."""
        return (
            self.published()
            .exclude(pk=source.pk)
            .filter(topics__in=topic_ids)
            .annotate(shared=Count("topics", distinct=True))
            .order_by("-shared", "title")
        )


# mypy cannot take a class built at run time (from_queryset) as a base: hence the ignore.
class PublicSourceManager(models.Manager.from_queryset(SourceQuerySet)):  # type: ignore[misc]
    """Sources anyone may see: the default manager, so a query that forgets to ask is safe."""

    def get_queryset(self) -> SourceQuerySet:
        return super().get_queryset().exclude(status=PRIVATE)


def each_once(sources: Iterable[Source]) -> list[Source]:
    """`sources` in their order, each kept where it first appears: a source cited in several
    sections of a list comes back from the join once per citation."""
    seen: set[int] = set()
    ordered = []
    for source in sources:
        if source.pk not in seen:
            seen.add(source.pk)
            ordered.append(source)
    return ordered


def counted[QS: models.QuerySet[Any]](queryset: QS, **counts: Aggregate) -> QS:
    """`queryset` annotated with `counts`, still in the model's order: Django leaves
    Meta.ordering out of queries that aggregate, which would shuffle topics and lists."""
    annotated = queryset.annotate(**counts)
    if queryset.query.order_by:
        return annotated
    return annotated.order_by(*queryset.model._meta.ordering)


class TopicQuerySet(models.QuerySet["Topic"]):
    def with_counts(self) -> TopicQuerySet:
        published = Q(sources__status="published")
        return counted(self, source_count=Count("sources", filter=published, distinct=True))


class TierQuerySet(models.QuerySet["Tier"]):
    def with_counts(self) -> TierQuerySet:
        published = Q(sources__status="published")
        return counted(self, source_count=Count("sources", filter=published))


class ReadingListQuerySet(models.QuerySet["ReadingList"]):
    def with_counts(self) -> ReadingListQuerySet:
        """Sources each list cites (once each, however many sections repeat them)."""
        published = Q(sections__entries__source__status="published")
        cited = Count("sections__entries__source", filter=published, distinct=True)
        return counted(self, source_count=cited)
