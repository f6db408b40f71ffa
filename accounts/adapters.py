from allauth.account.adapter import DefaultAccountAdapter
from django.conf import settings


class AccountAdapter(DefaultAccountAdapter):
    def is_open_for_signup(self, request):
        # A team may close sign-up once everyone is in; maintainers then invite by admin.
        return settings.ACCOUNT_ALLOW_SIGNUP
