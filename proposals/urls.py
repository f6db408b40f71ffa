from django.urls import path

from . import views

app_name = "proposals"

urlpatterns = [
    path("propose/", views.propose, name="propose"),
    path("propose/check/", views.propose_check, name="propose-check"),
    path("propose/fill/", views.propose_fill, name="propose-fill"),
    path("proposals/", views.my_proposals, name="my-proposals"),
    path("proposals/decisions/", views.decision_log, name="decision-log"),
    path("proposals/<int:pk>/", views.proposal_detail, name="proposal-detail"),
    path("proposals/<int:pk>/edit/", views.proposal_edit, name="proposal-edit"),
    path("proposals/alerts/", views.alerts, name="alerts"),
]
