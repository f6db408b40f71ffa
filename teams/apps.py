from django.apps import AppConfig
from django.db.models import Model


class TeamsConfig(AppConfig):
    name = "teams"
    verbose_name = "Teams"

    def ready(self) -> None:
        from accounts.profile_sections import register_profile_section
        from accounts.signup import register_admission_claim, register_signup_gate
        from readinglist import pagecache

        from .models import Session
        from .reminder_settings import reminder_settings_section
        from .signals import claim_invitation_at_signup, connect_signals, pending_invitation

        connect_signals()
        # Sign-up by invitation only: a team invitation is the way in.
        register_signup_gate(pending_invitation)
        register_admission_claim(claim_invitation_at_signup)
        # The reader's reminder setting is edited on their profile with the rest.
        register_profile_section(reminder_settings_section)
        # A team's pages show its name, sessions and members; owners' settings show its
        # invitations, join links and email domains. None of it concerns another team's pages.
        pagecache.register_memberships(self.get_model("Membership"))
        pagecache.register(self.get_model("Team"), scope="team", teams=lambda team: [team.pk])
        for name in ("Session", "Invitation", "JoinLink", "FollowedList", "TeamDomain"):
            pagecache.register(self.get_model(name), scope="team", teams=_own_team)
        pagecache.register(Session.sources.through, scope="team", teams=_own_team)
        # A departure shows only to the reader who left, on their old link to the team.
        pagecache.register(self.get_model("Departure"), scope="reader")
        pagecache.register(self.get_model("ReminderSettings"), scope="reader")


def _own_team(row: Model) -> list[int | None]:
    # For the sessions' reading (an m2m), `row` is the session, or a source when changed from
    # the source's side: then no team is named and every reader's pages are dropped instead.
    return [getattr(row, "team_id", None)]
