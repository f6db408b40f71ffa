from django.urls import path

from . import views

app_name = "accounts"

urlpatterns = [
    path("", views.library, name="library"),
    path("bookmarks/<slug:slug>/", views.bookmark, name="bookmark"),
    path("bulk/", views.bulk_change, name="bulk"),
    path("progress/path/", views.path_progress, name="path-progress"),
    path("progress/lists/<slug:slug>/", views.list_progress, name="list-progress"),
]

# Mounted under /accounts/ next to allauth's pages, with allauth-style names.
account_urlpatterns = [
    path("profile/", views.profile, name="account_profile"),
    path("delete/", views.delete_account, name="account_delete"),
]
