from django.urls import path, register_converter

from .feeds import LatestSourcesFeed, ReadingListFeed, TopicFeed
from .views import changes, cite, exports


class CitationFormat:
    regex = "bib|json|ris"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(CitationFormat, "citefmt")

app_name = "catalog"

urlpatterns = [
    path("catalog.json", exports.catalog_json, name="catalog-json"),
    # Interop and freshness: citations, feeds and the change log.
    path("sources/cite.<citefmt:fmt>", exports.search_citation, name="search-cite"),
    path("sources/<slug:slug>/cite/", cite.source_cite, name="source-cite-style"),
    path("cite/default-style/", cite.default_style, name="cite-default-style"),
    path("sources/<slug:slug>/cite.<citefmt:fmt>", exports.source_citation, name="source-cite"),
    path("lists/<slug:slug>/cite.<citefmt:fmt>", exports.list_citation, name="list-cite"),
    path("changes/", changes.change_log, name="changes"),
    path("feeds/sources/", LatestSourcesFeed(), name="feed-sources"),
    path("feeds/topics/<slug:slug>/", TopicFeed(), name="feed-topic"),
    path("feeds/lists/<slug:slug>/", ReadingListFeed(), name="feed-list"),
]
