from django.urls import path

from .views import browse

app_name = "catalog"

urlpatterns = [
    path("", browse.home, name="home"),
    path("sources/", browse.source_list, name="source-list"),
    path("sources/<slug:slug>/", browse.source_detail, name="source-detail"),
    path("topics/<slug:slug>/", browse.topic_detail, name="topic-detail"),
    path("tiers/<slug:slug>/", browse.tier_detail, name="tier-detail"),
    path("lists/<slug:slug>/", browse.list_detail, name="list-detail"),
    path("catalog.json", browse.catalog_json, name="catalog-json"),
]
