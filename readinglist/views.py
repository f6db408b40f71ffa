"""View helpers every app shares."""

from collections.abc import Callable
from functools import wraps
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth import REDIRECT_FIELD_NAME
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, resolve_url
from django_htmx.http import HttpResponseClientRedirect

from readinglist.requests import HtmxHttpRequest

View = Callable[..., HttpResponse]


def login_redirect(request: HttpRequest, next_url: str) -> HttpResponse:
    """Send the visitor to log in and then to `next_url`.

    An HTMX request gets a client redirect: a plain redirect would be followed by htmx itself and
    the login page swapped into a fragment of the current one.
    """
    login = f"{resolve_url(settings.LOGIN_URL)}?{urlencode({REDIRECT_FIELD_NAME: next_url})}"
    if getattr(request, "htmx", False):
        return HttpResponseClientRedirect(login)
    return redirect(login)


def login_required_htmx(view: View) -> View:
    """Like login_required, but an HTMX request is sent to log in with a full-page redirect,
    coming back to the page the visitor was on rather than to the fragment's URL."""

    @wraps(view)
    def wrapped(request: HtmxHttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        if request.user.is_authenticated:
            return view(request, *args, **kwargs)
        if request.htmx:
            return login_redirect(
                request, request.htmx.current_url_abs_path or request.get_full_path()
            )
        return redirect_to_login(request.get_full_path())

    return wrapped
