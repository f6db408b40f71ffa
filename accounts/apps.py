from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        from allauth.account.models import EmailAddress, EmailConfirmation
        from allauth.socialaccount.models import SocialAccount, SocialApp, SocialToken

        from readinglist import pagecache

        from .models import User

        # A reader's rows show on their own pages; the public name (display name, else the
        # email's name) on teammates' pages too. last_login (an update_fields save) concerns
        # the reader alone. The user's groups and permissions tables are left to the
        # registry's own rule: they concern that reader alone.
        for model in self.get_models():
            pagecache.register(model, scope="team")
        pagecache.register(User, scope="team", team_fields={"display_name", "email"})
        pagecache.register(EmailAddress, scope="team")
        # A reader's groups and permissions change what their own pages offer.
        for relation in (User.groups.through, User.user_permissions.through):
            pagecache.register(relation, scope="reader")
        pagecache.register(SocialAccount, scope="reader")
        pagecache.exempt(
            EmailConfirmation,
            reason="a pending confirmation shows on no page; confirming changes its EmailAddress",
        )
        for model in (SocialToken, SocialApp, SocialApp.sites.through):
            pagecache.exempt(model, reason="sign-in providers' settings and tokens show on no page")
