"""The site's pages, at the addresses they have always had."""

from django.urls import path

from .views import browse, home, search, sources

app_name = "pages"

urlpatterns = [
    path("", home.home, name="home"),
    path("sources/", search.source_list, name="source-list"),
    path("sources/<slug:slug>/", sources.source_detail, name="source-detail"),
    path("topics/", browse.topic_index, name="topic-index"),
    path("topics/<slug:slug>/", browse.topic_detail, name="topic-detail"),
    path("tiers/", browse.tier_index, name="tier-index"),
    path("tiers/<slug:slug>/", browse.tier_detail, name="tier-detail"),
    path("lists/", browse.list_index, name="list-index"),
    path("lists/<slug:slug>/", browse.list_detail, name="list-detail"),
]
