from django.apps import AppConfig


def _private_note_created(note, created):
    # Only its author sees a new private note. An edited private note may have been a team
    # note a moment ago, so edits still reach the team.
    return created and note.visibility == "private"


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts"

    def ready(self):
        from allauth.account.models import EmailAddress

        from readinglist import pagecache

        from . import pending  # noqa: F401  (connects the login receiver)

        # Bookmarks show in teammates' progress and activity; an email address can be the
        # public name a teammate sees.
        # (The user's groups and permissions tables are left to the registry's own rule: they
        # concern that reader alone.)
        for model in self.get_models():
            pagecache.register(model, scope="team")
        # last_login and last_seen_changes_at (update_fields saves) show on the reader's own
        # pages only; the public name is what teammates see.
        pagecache.register(
            self.get_model("User"), scope="team", team_fields={"display_name", "email"}
        )
        pagecache.register(self.get_model("Note"), scope="team", owner_only=_private_note_created)
        pagecache.register(EmailAddress, scope="team")
