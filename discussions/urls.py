"""Discussions URLs, included from readinglist/urls.py before the site's pages."""

from django.urls import path

from . import email_views, notification_views, views

app_name = "discussions"

urlpatterns = [
    path("sources/<slug:slug>/discussion/", views.source_threads_view, name="source"),
    path("discussions/<int:pk>/", views.thread_view, name="thread"),
    path("discussions/<int:pk>/reply/", views.reply_view, name="reply"),
    path("discussions/<int:pk>/edit/", views.thread_edit_view, name="edit"),
    path("discussions/<int:pk>/delete/", views.thread_delete_view, name="delete"),
    path("discussions/<int:pk>/hide/", views.thread_hide_view, name="hide"),
    path("discussions/<int:pk>/answered/", views.thread_answered_view, name="answered"),
    path("discussions/<int:pk>/resolved/", views.thread_resolved_view, name="resolved"),
    path("discussions/replies/<int:pk>/edit/", views.reply_edit_view, name="reply-edit"),
    path("discussions/replies/<int:pk>/delete/", views.reply_delete_view, name="reply-delete"),
    path("notifications/", notification_views.notifications_view, name="notifications"),
    path("notifications/settings/", email_views.email_settings_view, name="email-settings"),
    path(
        "notifications/unsubscribe/<str:token>/",
        email_views.unsubscribe_view,
        name="unsubscribe",
    ),
]
