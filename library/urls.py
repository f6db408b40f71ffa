"""The reader's library under /library/. readinglist/urls.py includes notes first: notes own
/library/notes/…, which no path here may shadow."""

from django.urls import path

from .views import bookmarks, exports, imports

app_name = "library"

urlpatterns = [
    path("", bookmarks.library, name="index"),
    path("bookmarks/<slug:slug>/", bookmarks.bookmark, name="bookmark"),
    path("bulk/", bookmarks.bulk_change, name="bulk"),
    path("progress/path/", bookmarks.path_progress, name="path-progress"),
    path("progress/lists/<slug:slug>/", bookmarks.list_progress, name="list-progress"),
    path("export/", exports.export_index, name="export-index"),
    path("export.csv", exports.export_csv, name="export-csv"),
    path("export.json", exports.export_json, name="export-json"),
    path("export.bib", exports.export_bibtex, name="export-bibtex"),
    path("export.csl.json", exports.export_csl, name="export-csl"),
    path("lists/<slug:slug>.md", exports.list_markdown, name="export-list-markdown"),
]

# Imports from a reference manager.
urlpatterns += [
    path("import/", imports.import_library, name="import"),
    path("import/confirm/", imports.confirm_import, name="import-confirm"),
]
