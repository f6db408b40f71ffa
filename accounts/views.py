from allauth.core import ratelimit
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from . import services
from .forms import DeleteAccountForm, ProfileForm
from .profile_sections import profile_sections
from .requests import AuthenticatedHttpRequest

# What the profile form saves, as its message names it.
SAVED_NAMES = {"display_name": "display name", "time_zone": "time zone"}


def saved_message(changed: list[str]) -> str:
    """Name what was saved, so changing only the time zone does not speak of the name."""
    names = [SAVED_NAMES[field] for field in SAVED_NAMES if field in changed]
    if not names:
        return "Nothing changed: your profile is as it was."
    verb = "is" if len(names) == 1 else "are"
    return f"Your {' and '.join(names)} {verb} saved."


@require_http_methods(["GET", "POST"])
@login_required
def profile(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = ProfileForm(request.POST or None, instance=request.user)
    sections = profile_sections(request.user, request.POST or None)
    # Every form is validated, so each shows its own errors.
    if request.method == "POST" and all([form.is_valid(), *(s.is_valid() for s in sections)]):
        form.save()
        for section in sections:
            section.save()
        # form.initial holds the values from before this POST; the instance already has the new.
        changed = [
            name for name in SAVED_NAMES if form.cleaned_data[name] != form.initial.get(name)
        ]
        messages.success(request, saved_message(changed))
        return redirect("account_profile")
    return render(request, "accounts/profile.html", {"form": form, "sections": sections})


@require_http_methods(["GET", "POST"])
@login_required
def delete_account(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = DeleteAccountForm(request.POST or None, user=request.user)
    if request.method == "POST":
        # The password check shares allauth's re-authentication rate limit against guessing.
        too_many = ratelimit.consume_or_429(request, action="reauthenticate", user=request.user)
        if too_many:
            return too_many
    if request.method == "POST" and form.is_valid():
        user = request.user
        logout(request)
        services.delete_account(user=user)
        messages.success(request, "Your account, bookmarks and notes are deleted.")
        return redirect("pages:home")
    return render(request, "accounts/delete_account.html", {"form": form})
