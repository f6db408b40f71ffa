"""Who may sign up (ACCOUNT_SIGNUP_MODE), for passwords and identity providers alike."""

from allauth.account.adapter import DefaultAccountAdapter
from allauth.core.exceptions import ImmediateHttpResponse
from allauth.socialaccount.adapter import DefaultSocialAccountAdapter
from allauth.socialaccount.adapter import get_adapter as get_social_adapter
from django import forms
from django.conf import settings
from django.shortcuts import render
from requests import RequestException

from .signup import admission_admits, pending_admission


def signup_mode() -> str:
    return settings.ACCOUNT_SIGNUP_MODE


def allowed_domains() -> set[str]:
    return {
        domain.strip().lstrip("@").lower() for domain in settings.ACCOUNT_SIGNUP_ALLOWED_DOMAINS
    }


def domain_allowed(email: str) -> bool:
    return email.rsplit("@", 1)[-1].lower() in allowed_domains()


class AccountAdapter(DefaultAccountAdapter):
    def is_open_for_signup(self, request):
        mode = signup_mode()
        if mode == "invitation":
            return pending_admission(request) is not None
        return True

    def clean_email(self, email):
        email = super().clean_email(email)
        mode = signup_mode()
        if mode == "domains" and not domain_allowed(email):
            domains = ", ".join(sorted(allowed_domains()))
            raise forms.ValidationError(f"Signing up is open to addresses at {domains} only.")
        if mode == "invitation" and self.request is not None:
            # clean_email also runs when a signed-in reader adds an address; only sign-up is
            # limited to the invited one.
            signing_up = not self.request.user.is_authenticated
            if signing_up and not admission_admits(self.request, email):
                raise forms.ValidationError("Sign up with the address your invitation was sent to.")
        return email


class SocialAccountAdapter(DefaultSocialAccountAdapter):
    def is_open_for_signup(self, request, sociallogin):
        mode = signup_mode()
        emails = [address for address in sociallogin.email_addresses if address.email]
        if mode == "domains":
            # Only an address the provider vouches for proves someone belongs to a domain.
            allowed = any(address.verified and domain_allowed(address.email) for address in emails)
            if not allowed:
                domains = ", ".join(sorted(allowed_domains()))
                _refuse(request, f"Signing up is open to addresses at {domains} only.")
            return True
        if mode == "invitation":
            if not any(admission_admits(request, address.email) for address in emails):
                _refuse(
                    request,
                    "Signing up on this site is by invitation. Open the invitation link you "
                    "were emailed first, then log in with the invited address.",
                )
            return True
        return True

    def pre_social_login(self, request, sociallogin):
        if sociallogin.is_existing:
            return
        provider = sociallogin.provider.name
        if not any(address.email for address in sociallogin.email_addresses):
            _refuse(
                request, f"{provider} did not share your email address, so we cannot log you in."
            )
        if not any(address.verified for address in sociallogin.email_addresses):
            # An unverified address could belong to someone else's account here.
            email = sociallogin.email_addresses[0].email
            _refuse(
                request,
                f"{provider} has not verified your email address {email}. Verify it with "
                f"{provider}, then log in again.",
            )

    def on_authentication_error(
        self, request, provider, error=None, exception=None, extra_context=None
    ):
        name = provider.name if provider else "your identity provider"
        if isinstance(exception, RequestException):
            reason = f"We could not reach {name}. Try again in a few minutes."
        elif extra_context is not None and "state_id" in extra_context:
            reason = (
                "This attempt to log in has expired or was started in another browser. "
                "Start again from the Log in page."
            )
        else:
            reason = f"{name} did not let you log in. Try again, or log in with a password."
        if extra_context is not None:
            extra_context["reason"] = reason

    def get_requests_session(self):
        """Calls to the identity provider; one that cannot be reached shows the authentication
        error page instead of a server error."""
        session = super().get_requests_session()
        send = session.request
        request = self.request

        def guarded(*args, **kwargs):
            try:
                return send(*args, **kwargs)
            except RequestException as exc:
                if request is None:
                    raise
                raise ImmediateHttpResponse(_provider_unreachable(request, exc)) from exc

        session.request = guarded
        return session


def _refuse(request, reason: str):
    response = render(request, "socialaccount/signup_refused.html", {"reason": reason}, status=403)
    raise ImmediateHttpResponse(response)


def _provider_unreachable(request, exc):
    from allauth.socialaccount.helpers import render_authentication_error

    provider_id = (request.resolver_match.kwargs or {}).get("provider_id", "")
    provider = None
    if provider_id:
        provider = get_social_adapter(request).get_provider(request, provider_id)
    return render_authentication_error(request, provider, exception=exc)
