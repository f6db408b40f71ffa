from django.urls import path

from .feeds import PathChangesFeed
from .views import exports, following

app_name = "paths"

urlpatterns: list = [
    path("<str:key>/follow/", following.follow, name="follow"),
    path("<str:key>/unfollow/", following.unfollow, name="unfollow"),
    path("<str:key>/team-follow/", following.team_follow, name="team-follow"),
    path("<str:key>/team-unfollow/", following.team_unfollow, name="team-unfollow"),
    path(
        "<str:key>/teams/<slug:slug>/progress/",
        following.team_progress,
        name="team-progress",
    ),
    path("<str:key>/export.md", exports.export_markdown, name="export-markdown"),
    path("<str:key>/export.bib", exports.export_bibtex, name="export-bibtex"),
    path("<str:key>/export.json", exports.export_csl, name="export-csl"),
    path("<str:key>/changes.atom", PathChangesFeed(), name="feed"),
]
