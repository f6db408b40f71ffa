"""The reader's library under /library/. readinglist/urls.py includes notes first: notes own
/library/notes/…, which no path here may shadow."""

from django.urls import path

from .feeds import SavedSearchFeed
from .views import bookmarks, dismissals, exports, follows, for_you, imports, team_progress

app_name = "library"

urlpatterns = [
    path("", bookmarks.library, name="index"),
    path("bookmarks/", bookmarks.bookmark_choice, name="bookmark-choice"),
    path("bookmarks/<slug:slug>/", bookmarks.bookmark, name="bookmark"),
    path("bulk/", bookmarks.bulk_change, name="bulk"),
    path("progress/path/", bookmarks.path_progress, name="path-progress"),
    path("progress/lists/<slug:slug>/", bookmarks.list_progress, name="list-progress"),
    path(
        "teams/<slug:slug>/progress/<int:pk>/",
        team_progress.list_progress,
        name="team-list-progress",
    ),
    path("export/", exports.export_index, name="export-index"),
    path("export/cite/", exports.export_cite, name="export-cite"),
    path("export.csv", exports.export_csv, name="export-csv"),
    path("export.json", exports.export_json, name="export-json"),
    path("export.bib", exports.export_bibtex, name="export-bibtex"),
    path("export.csl.json", exports.export_csl, name="export-csl"),
    path("export.ris", exports.export_ris, name="export-ris"),
    path("lists/<slug:slug>.md", exports.list_markdown, name="export-list-markdown"),
    path("for-you/", for_you.for_you, name="for-you"),
    path("for-you/dismiss/<slug:slug>/", dismissals.dismiss, name="dismiss"),
    path("for-you/undismiss/<slug:slug>/", dismissals.undismiss, name="undismiss"),
    path("following/", follows.following, name="follows"),
    path("following/search/", follows.follow_search, name="follow-search"),
    path("following/<int:pk>/unfollow/", follows.unfollow, name="unfollow"),
    path("following/feeds/<str:token>/", SavedSearchFeed(), name="saved-search-feed"),
    path("following/<str:kind>/<slug:slug>/", follows.follow_target, name="follow"),
    path("digest/", follows.digest_frequency, name="digest-frequency"),
    path("digest/unsubscribe/<str:token>/", follows.digest_unsubscribe, name="digest-unsubscribe"),
]

# Imports from a reference manager.
urlpatterns += [
    path("import/", imports.import_library, name="import"),
    path("import/confirm/", imports.confirm_import, name="import-confirm"),
]
