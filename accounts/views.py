from allauth.core import ratelimit
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from . import services
from .forms import DeleteAccountForm, ProfileForm


@require_http_methods(["GET", "POST"])
@login_required
def profile(request: HttpRequest) -> HttpResponse:
    form = ProfileForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, "Your display name is saved.")
        return redirect("account_profile")
    return render(request, "accounts/profile.html", {"form": form})


@require_http_methods(["GET", "POST"])
@login_required
def delete_account(request: HttpRequest) -> HttpResponse:
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
        return redirect("catalog:home")
    return render(request, "accounts/delete_account.html", {"form": form})
