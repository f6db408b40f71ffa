from django.urls import path

from . import views

# Mounted under /accounts/ next to allauth's pages, with allauth-style names.
account_urlpatterns = [
    path("profile/", views.profile, name="account_profile"),
    path("delete/", views.delete_account, name="account_delete"),
]
