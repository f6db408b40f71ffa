from django.urls import path

from .feeds import PathChangesFeed
from .views import adding, editing, exports, following, pages

app_name = "paths"

# Fixed addresses come before "<key>/": a path's key never spells one of them.
urlpatterns: list = [
    path("", pages.index, name="index"),
    path("new/", pages.create, name="create"),
    path("add/", adding.add_source, name="add-source"),
    path("<slug:key>/", pages.detail, name="detail"),
    path("<slug:key>/edit/", editing.edit, name="edit"),
    path("<slug:key>/editors/", editing.editors, name="editors"),
    path("<slug:key>/delete/", editing.delete, name="delete"),
    path("<slug:key>/steps/", editing.add_step_view, name="add-step"),
    path("<slug:key>/steps/change/", editing.steps_action, name="steps-action"),
    path("<slug:key>/steps/<int:step>/move/", editing.move_to, name="move-to"),
    path("<slug:key>/steps/<int:step>/edit/", editing.step_edit, name="step-edit"),
    path("<slug:key>/sections/", editing.section_add, name="add-section"),
    path("<slug:key>/sections/<int:section>/", editing.section_action, name="section"),
    path("<slug:key>/follow/", following.follow, name="follow"),
    path("<slug:key>/unfollow/", following.unfollow, name="unfollow"),
    path("<slug:key>/team-follow/", following.team_follow, name="team-follow"),
    path("<slug:key>/team-unfollow/", following.team_unfollow, name="team-unfollow"),
    path(
        "<slug:key>/teams/<slug:slug>/progress/",
        following.team_progress,
        name="team-progress",
    ),
    path("<slug:key>/export.md", exports.export_markdown, name="export-markdown"),
    path("<slug:key>/export.bib", exports.export_bibtex, name="export-bibtex"),
    path("<slug:key>/export.json", exports.export_csl, name="export-csl"),
    path("<slug:key>/changes.atom", PathChangesFeed(), name="feed"),
]
