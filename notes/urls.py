"""Notes URLs, included from readinglist/urls.py before the "library/" include."""

from django.urls import path

from . import views

app_name = "notes"

urlpatterns = [
    path("library/notes/", views.my_notes_view, name="mine"),
    path("library/notes/export.md", views.export_markdown_view, name="export-markdown"),
    path("library/notes/export.json", views.export_json_view, name="export-json"),
    path("notes/team/", views.team_notes_view, name="team"),
    path("sources/<slug:slug>/notes/new/", views.note_create_view, name="create"),
    path("notes/<int:pk>/", views.note_detail_view, name="detail"),
    path("notes/<int:pk>/edit/", views.note_edit_view, name="edit"),
    path("notes/<int:pk>/delete/", views.note_delete_view, name="delete"),
    path("notes/<int:pk>/restore/", views.note_restore_view, name="restore"),
]
