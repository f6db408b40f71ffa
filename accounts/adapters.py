"""Who may sign up (ACCOUNT_SIGNUP_MODE), for passwords and identity providers alike."""

from typing import Any, NoReturn

from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.models import EmailAddress
from allauth.account.utils import filter_users_by_email
from allauth.core.exceptions import ImmediateHttpResponse
from allauth.socialaccount.adapter import DefaultSocialAccountAdapter
from allauth.socialaccount.adapter import get_adapter as get_social_adapter
from allauth.socialaccount.models import SocialLogin
from allauth.socialaccount.providers.base import Provider
from django import forms
from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.forms import BaseForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.http import url_has_allowed_host_and_scheme
from requests import RequestException, Response, Session

from .models import validate_time_zone
from .signup import (
    AFTER_SIGNUP_SESSION_KEY,
    AFTER_VERIFICATION_SESSION_KEY,
    admission_admits,
    claim_admission,
    pending_admission,
)


def signup_mode() -> str:
    return settings.ACCOUNT_SIGNUP_MODE


def allowed_domains() -> set[str]:
    return {
        domain.strip().lstrip("@").lower() for domain in settings.ACCOUNT_SIGNUP_ALLOWED_DOMAINS
    }


def domain_allowed(email: str) -> bool:
    return email.rsplit("@", 1)[-1].lower() in allowed_domains()


def browser_time_zone(request: HttpRequest) -> str:
    """The time zone the sign-up page's script read from the browser, when it is a real one;
    without JavaScript there is none and the profile's default (UTC) stands until changed."""
    zone = (request.POST.get("time_zone") or "").strip()
    try:
        validate_time_zone(zone)
    except ValidationError:
        return ""
    return zone


class AccountAdapter(DefaultAccountAdapter):
    def is_open_for_signup(self, request: HttpRequest) -> bool:
        mode = signup_mode()
        if mode == "invitation":
            return pending_admission(request) is not None
        return True

    def clean_email(self, email: str) -> str:
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

    def save_user(
        self, request: HttpRequest, user: AbstractBaseUser, form: BaseForm, commit: bool = True
    ) -> AbstractBaseUser:
        zone = browser_time_zone(request)
        if zone:
            # allauth types the user as AbstractBaseUser; ours has the time zone field.
            user.time_zone = zone  # type: ignore[attr-defined]
        if signup_mode() != "invitation" or not commit:
            return super().save_user(request, user, form, commit=commit)
        # The account and the use of its invitation commit together: an invitation admits one
        # account however many sign-ups race for it.
        with transaction.atomic():
            user = super().save_user(request, user, form, commit=True)
            if not claim_admission(request, user):
                raise ImmediateHttpResponse(_invitation_used_up(request))
        return user

    def get_email_verification_redirect_url(self, email_address: EmailAddress) -> str:
        # A page that asked the reader to verify first (a team they are joining) comes next.
        url = _pop_local_url(self.request, AFTER_VERIFICATION_SESSION_KEY)
        return url or super().get_email_verification_redirect_url(email_address)

    def get_signup_redirect_url(self, request: HttpRequest) -> str:
        return _pop_local_url(request, AFTER_SIGNUP_SESSION_KEY) or super().get_signup_redirect_url(
            request
        )


def _pop_local_url(request: HttpRequest | None, key: str) -> str:
    """A path on this site kept in the session under `key` (taken out), or ""."""
    session = getattr(request, "session", None)
    url = session.pop(key, None) if session is not None else None
    if isinstance(url, str) and url_has_allowed_host_and_scheme(url, allowed_hosts=None):
        return url
    return ""


class SocialAccountAdapter(DefaultSocialAccountAdapter):
    def is_open_for_signup(self, request: HttpRequest, sociallogin: SocialLogin) -> bool:
        rule = _signup_rule_refusal(request, sociallogin)
        if rule:
            _refuse(request, rule)
        return True

    def authenticate_by_email(self, sociallogin: SocialLogin) -> tuple[Any, str] | None:
        """allauth's sign-in by email, onto accounts that proved the address only: whoever
        registered an address they never verified may not own it, and signing its owner in
        there would show them what that person planted (notes, teams, a password they know)."""
        found = super().authenticate_by_email(sociallogin)
        if found is None:
            return None
        user, email = found
        return found if _proved(user, email) else None

    def pre_social_login(self, request: HttpRequest, sociallogin: SocialLogin) -> None:
        if sociallogin.is_existing:
            return
        provider = sociallogin.provider.name
        # The site's sign-up rule first: when it refuses, that is the reason to give, whatever
        # else the provider left out.
        rule = _signup_rule_refusal(request, sociallogin)
        if rule:
            _refuse(request, rule)
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
        if taken := _held_unverified(sociallogin):
            _refuse(
                request,
                f"An account on this site already uses {taken}, but its address was never "
                f"verified, so {provider} cannot log you into it. If the account is yours, "
                "log in with its password and verify the address from your account page, then "
                f"use {provider} again. If you did not create it, reset its password from the "
                "Log in page: the email we send proves the address is yours.",
            )

    def on_authentication_error(
        self,
        request: HttpRequest,
        provider: Provider | None,
        error: str | None = None,
        exception: BaseException | None = None,
        extra_context: dict[str, Any] | None = None,
    ) -> None:
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

    def get_requests_session(self) -> Session:
        """Calls to the identity provider; one that cannot be reached shows the authentication
        error page instead of a server error."""
        session = super().get_requests_session()
        send = session.request
        request = self.request

        def guarded(*args: Any, **kwargs: Any) -> Response:
            try:
                return send(*args, **kwargs)
            except RequestException as exc:
                if request is None:
                    raise
                raise ImmediateHttpResponse(_provider_unreachable(request, exc)) from exc

        session.request = guarded
        return session


def _held_unverified(sociallogin: SocialLogin) -> str:
    """An address the provider vouches for that an account here holds without having proved
    it, or "": signing up would take the address, and signing in would hand over the account."""
    vouched = [address.email for address in sociallogin.email_addresses if address.verified]
    for email in vouched:
        for user in filter_users_by_email(email):
            if not _proved(user, email):
                return email
    return ""


def _proved(user: Any, email: str) -> bool:
    return EmailAddress.objects.filter(user=user, email__iexact=email, verified=True).exists()


def _signup_rule_refusal(request: HttpRequest, sociallogin: SocialLogin) -> str:
    """Why ACCOUNT_SIGNUP_MODE refuses this new account, or "" when it admits it."""
    mode = signup_mode()
    emails = [address for address in sociallogin.email_addresses if address.email]
    # Only an address the provider vouches for proves someone belongs to a domain.
    if mode == "domains" and not any(
        address.verified and domain_allowed(address.email) for address in emails
    ):
        domains = ", ".join(sorted(allowed_domains()))
        at_domain = [address.email for address in emails if domain_allowed(address.email)]
        if at_domain:
            return (
                f"Signing up is open to verified addresses at {domains} only, and your "
                f"identity provider has not verified {at_domain[0]}."
            )
        return f"Signing up is open to addresses at {domains} only."
    if mode == "invitation" and not any(
        admission_admits(request, address.email) for address in emails
    ):
        return (
            "Signing up on this site is by invitation. Open the invitation link you were "
            "emailed first, then log in with the invited address."
        )
    return ""


def _invitation_used_up(request: HttpRequest) -> HttpResponse:
    reason = (
        "This invitation has just been used by someone else, so no account was created. "
        "Ask the team's owners for an invitation of your own."
    )
    return render(request, "accounts/signup_refused.html", {"reason": reason}, status=409)


def _refuse(request: HttpRequest, reason: str) -> NoReturn:
    response = render(request, "socialaccount/signup_refused.html", {"reason": reason}, status=403)
    raise ImmediateHttpResponse(response)


def _provider_unreachable(request: HttpRequest, exc: RequestException) -> HttpResponse:
    from allauth.socialaccount.helpers import render_authentication_error

    # A request that matched no URL (built outside a view) names no provider either.
    match = request.resolver_match
    provider_id = (match.kwargs or {}).get("provider_id", "") if match is not None else ""
    provider = None
    if provider_id:
        provider = get_social_adapter(request).get_provider(request, provider_id)
    return render_authentication_error(request, provider, exception=exc)
