"""The reader's notification mail setting, and the one-click unsubscribe its mails carry."""

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from accounts.models import User
from accounts.requests import AuthenticatedHttpRequest
from readinglist.views import login_required_htmx

from . import emails
from .forms import EmailModeForm
from .models import EmailMode


def _next(request: HttpRequest) -> str | None:
    wanted = request.POST.get("next", "")
    safe = url_has_allowed_host_and_scheme(
        wanted, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return wanted if wanted and safe else None


@never_cache
@login_required_htmx
@require_http_methods(["GET", "POST"])
def email_settings_view(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Show and change how the signed-in reader hears about replies and mentions by email.
    The profile page shows the same form and posts here."""
    form = EmailModeForm(request.POST or None, initial={"email_mode": emails.mode_of(request.user)})
    if request.method == "POST":
        if form.is_valid():
            emails.set_mode(request.user.pk, form.cleaned_data["email_mode"])
            label = EmailMode(form.cleaned_data["email_mode"]).label
            messages.success(request, f"Email about replies and mentions: {label}.")
            return redirect(_next(request) or "discussions:email-settings")
        return render(request, "discussions/email_settings.html", {"form": form}, status=400)
    return render(request, "discussions/email_settings.html", {"form": form})


# Mail clients post RFC 8058's one-click body with no CSRF token and no session: the signed
# token, valid for this view alone (its own salt), is the proof. GET changes nothing.
@csrf_exempt
@never_cache
@require_http_methods(["GET", "POST"])
def unsubscribe_view(request: HttpRequest, token: str) -> HttpResponse:
    """GET asks to confirm (link scanners follow links); POST turns notification mail off."""
    user_id = emails.user_id_from_token(token)
    if user_id is None or not User.objects.filter(pk=user_id).exists():
        raise Http404("This unsubscribe link is not valid.")
    done = request.method == "POST"
    if done:
        emails.set_mode(user_id, EmailMode.NEVER)
    return render(request, "discussions/unsubscribe.html", {"token": token, "done": done})
