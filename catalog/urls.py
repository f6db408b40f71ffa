from django.urls import path

from . import views

app_name = "catalog"

urlpatterns = [
    path("", views.home, name="home"),
    path("sources/", views.source_list, name="source-list"),
    path("sources/<slug:slug>/", views.source_detail, name="source-detail"),
    path("topics/<slug:slug>/", views.topic_detail, name="topic-detail"),
    path("tiers/<slug:slug>/", views.tier_detail, name="tier-detail"),
    path("lists/<slug:slug>/", views.list_detail, name="list-detail"),
    path("catalog.json", views.catalog_json, name="catalog-json"),
]
