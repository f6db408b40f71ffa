"""Library exports, included from readinglist/urls.py before the "library/" include."""

from django.urls import path

from . import export_views

app_name = "exports"

urlpatterns = [
    path("library/export/", export_views.export_index, name="index"),
    path("library/export.csv", export_views.export_csv, name="csv"),
    path("library/export.json", export_views.export_json, name="json"),
    path("library/export.bib", export_views.export_bibtex, name="bibtex"),
    path("library/export.csl.json", export_views.export_csl, name="csl"),
    path("library/lists/<slug:slug>.md", export_views.list_markdown, name="list-markdown"),
]
