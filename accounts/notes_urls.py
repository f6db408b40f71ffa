"""Notes URLs, included from readinglist/urls.py before any other "library/" routes."""

from django.urls import path

from . import note_views

app_name = "notes"

urlpatterns = [
    path("library/notes/", note_views.my_notes_view, name="mine"),
    path("library/notes/export.md", note_views.export_markdown_view, name="export-markdown"),
    path("library/notes/export.json", note_views.export_json_view, name="export-json"),
    path("notes/team/", note_views.team_notes_view, name="team"),
    path("sources/<slug:slug>/notes/new/", note_views.note_create_view, name="create"),
    path("notes/<int:pk>/", note_views.note_detail_view, name="detail"),
    path("notes/<int:pk>/edit/", note_views.note_edit_view, name="edit"),
    path("notes/<int:pk>/delete/", note_views.note_delete_view, name="delete"),
    path("notes/<int:pk>/restore/", note_views.note_restore_view, name="restore"),
]
