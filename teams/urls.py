from django.urls import path

from . import confirm_views, progress_views, public_views, session_views, views

app_name = "teams"

urlpatterns = [
    path("teams/", views.team_list, name="list"),
    # Short enough to paste in a chat.
    # Tokens are 43 characters long, so this path never shadows a join link.
    path("join/verify/", public_views.verify_to_join, name="verify-to-join"),
    path("join/<str:token>/", public_views.join, name="join"),
    path("reminders/off/<str:token>/", public_views.reminders_off, name="reminders-off"),
    path("teams/invitations/<str:token>/", public_views.invitation, name="invitation"),
    path("teams/<slug:slug>/", views.team_detail, name="detail"),
    path("teams/<slug:slug>/members/", views.team_members, name="members"),
    path("teams/<slug:slug>/invite/", views.invite, name="invite"),
    path(
        "teams/<slug:slug>/invitations/<int:pk>/resend/",
        views.resend_invitation,
        name="invitation-resend",
    ),
    path(
        "teams/<slug:slug>/invitations/<int:pk>/withdraw/",
        views.withdraw_invitation,
        name="invitation-withdraw",
    ),
    path("teams/<slug:slug>/settings/", views.update_settings, name="settings"),
    path("teams/<slug:slug>/domains/", views.add_domain, name="domain-add"),
    path(
        "teams/<slug:slug>/domains/<int:pk>/remove/",
        confirm_views.remove_domain,
        name="domain-remove",
    ),
    path("teams/<slug:slug>/links/", views.create_join_link, name="link-create"),
    path(
        "teams/<slug:slug>/links/<int:pk>/revoke/",
        confirm_views.revoke_join_link,
        name="link-revoke",
    ),
    path(
        "teams/<slug:slug>/members/<int:user_id>/remove/",
        confirm_views.remove_member,
        name="member-remove",
    ),
    path(
        "teams/<slug:slug>/members/<int:user_id>/promote/",
        confirm_views.promote_member,
        name="member-promote",
    ),
    path("teams/<slug:slug>/progress/", progress_views.follow_list, name="list-follow"),
    path(
        "teams/<slug:slug>/progress/<int:pk>/remove/",
        progress_views.unfollow_list,
        name="list-unfollow",
    ),
    path("teams/<slug:slug>/delete/", confirm_views.delete_team, name="delete"),
    path("teams/<slug:slug>/leave/", confirm_views.leave, name="leave"),
    path(
        "teams/<slug:slug>/calendar/rotate/", confirm_views.rotate_calendar, name="calendar-rotate"
    ),
    path(
        "teams/<slug:slug>/calendar/<str:token>.ics",
        public_views.calendar_feed,
        name="calendar",
    ),
    path(
        "teams/<slug:slug>/sessions/sources/",
        session_views.source_suggestions,
        name="session-sources",
    ),
    path("teams/<slug:slug>/sessions/", session_views.session_list, name="sessions"),
    path("teams/<slug:slug>/sessions/new/", session_views.session_form, name="session-create"),
    path(
        "teams/<slug:slug>/sessions/<int:pk>/", session_views.session_detail, name="session-detail"
    ),
    path(
        "teams/<slug:slug>/sessions/<int:pk>/edit/",
        session_views.session_form,
        name="session-edit",
    ),
]
