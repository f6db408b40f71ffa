"""sitemap.xml (Django's sitemaps framework): every public page of the site.

/sitemap.xml is an index of one sitemap per section, sources in pages of 5,000, so no request
renders more than 5,000 URLs whatever the catalog's size. Links are absolute on the site's
configured domain (SITE_DOMAIN, operations/site_record.py).
"""

from datetime import datetime

from django.contrib.sitemaps import Sitemap
from django.db.models import Max, QuerySet
from django.urls import reverse

from catalog.models import ReadingList, Source, Tier, Topic
from catalog.querysets import SourceQuerySet
from paths.models import Path


class SourceSitemap(Sitemap):
    changefreq = "monthly"
    priority = 0.8
    limit = 5000

    def items(self) -> SourceQuerySet:
        return Source.objects.published().only("slug", "updated").order_by("pk")

    def lastmod(self, source: Source) -> datetime:
        return source.updated

    def get_latest_lastmod(self) -> datetime | None:
        # The index's default walks every item for this; one aggregate does.
        return Source.objects.published().aggregate(latest=Max("updated"))["latest"]


class CatalogSitemap(Sitemap):
    """Topics, tiers and lists: few rows, each a page of sources."""

    changefreq = "weekly"
    priority = 0.6

    def __init__(self, model: type[Topic] | type[Tier] | type[ReadingList]) -> None:
        self.model = model

    def items(self) -> QuerySet[Topic] | QuerySet[Tier] | QuerySet[ReadingList]:
        return self.model.objects.only("slug").order_by("pk")


class PageSitemap(Sitemap):
    changefreq = "daily"
    priority = 1.0

    def items(self) -> list[str]:
        return [
            "pages:home",
            "pages:source-list",
            "pages:topic-index",
            "pages:tier-index",
            "pages:list-index",
            "catalog:changes",
            "proposals:decision-log",
        ]

    def location(self, name: str) -> str:
        return reverse(name)


class PathSitemap(Sitemap):
    """Public paths only, through the one visibility rule: a private, team or unlisted path is
    never named here (an unlisted one is found only through its link)."""

    changefreq = "weekly"
    priority = 0.5
    limit = 5000

    def items(self) -> QuerySet[Path]:
        return Path.objects.public().only("key", "updated").order_by("pk")

    def lastmod(self, path: Path) -> datetime:
        return path.updated

    def get_latest_lastmod(self) -> datetime | None:
        return Path.objects.public().aggregate(latest=Max("updated"))["latest"]


SITEMAPS = {
    "pages": PageSitemap,
    "sources": SourceSitemap,
    "topics": CatalogSitemap(Topic),
    "tiers": CatalogSitemap(Tier),
    "lists": CatalogSitemap(ReadingList),
    "paths": PathSitemap,
}
