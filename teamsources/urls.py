from django.urls import path

from . import views

app_name = "teamsources"

urlpatterns = [
    path("save/team-source/", views.from_page, name="from-page"),
    path("teams/<slug:slug>/sources/", views.team_sources, name="list"),
    path("teams/<slug:slug>/sources/<int:pk>/file/", views.download, name="file"),
    path("teams/<slug:slug>/sources/<int:pk>/propose/", views.propose, name="propose"),
    path("teams/<slug:slug>/sources/<int:pk>/edit/", views.edit, name="edit"),
    path("teams/<slug:slug>/sources/<int:pk>/delete/", views.delete, name="delete"),
]
