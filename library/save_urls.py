"""/save/: where the bookmarklet lands, and the page that explains how to install it."""

from django.urls import path

from .views import save

app_name = "save"

urlpatterns = [
    path("save/", save.save, name="save"),
    path("save/bookmarklet/", save.bookmarklet, name="bookmarklet"),
]
