"""Follows and the digest: follow a topic, tier, list or search; the Following page with the
digest setting; the logged-out one-click unsubscribe; each saved search's Atom feed."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.requests import AuthenticatedHttpRequest
from readinglist.pagecache import page_cache
from readinglist.views import login_required_htmx

from .. import digests, follows
from ..forms import DigestFrequencyForm
from ..models import DigestSettings, Follow
from .bookmarks import safe_next


@require_POST
@login_required_htmx
def follow_target(request: AuthenticatedHttpRequest, kind: str, slug: str) -> HttpResponse:
    """Follow a topic, tier or reading list by its slug; 404 for anything else."""
    if kind not in follows.TARGET_MODELS:
        raise Http404("Nothing to follow there.")
    target = follows.target_object(kind, slug)
    try:
        follows.follow(user=request.user, kind=kind, target=slug)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(
            request,
            f"You follow {target}. New and changed sources show on your home page and "
            "in your digest.",
        )
    return redirect(safe_next(request, request.POST.get("next"), target.get_absolute_url()))


@require_POST
@login_required_htmx
def follow_search(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Save the search the form describes; a malformed one is refused with the reason."""
    try:
        target = follows.saved_search_target(request.POST)
        follows.follow(user=request.user, kind=Follow.Kind.SEARCH, target=target)
    except ValidationError as error:
        reason = " ".join(error.messages)
        messages.error(request, f"This search was not saved: {reason}")
        return render(request, "library/follows_refused.html", {"reason": reason}, status=400)
    messages.success(
        request, "Search saved. New matches show on your home page and in your digest."
    )
    return redirect(follows.search_url(target))


@require_POST
@login_required_htmx
def unfollow(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    follows.unfollow(user=request.user, follow_id=pk)
    messages.success(request, "Unfollowed.")
    return redirect(safe_next(request, request.POST.get("next"), "library:follows"))


@page_cache(reader=True)
@require_GET
@login_required_htmx
def following(request: AuthenticatedHttpRequest) -> HttpResponse:
    followed = follows.described(list(Follow.objects.filter(user=request.user)))
    setting = DigestSettings.objects.filter(user=request.user).first()
    frequency = setting.frequency if setting else DigestSettings.Frequency.OFF
    context = {
        "followed": followed,
        "frequency": frequency,
        "form": DigestFrequencyForm(initial={"frequency": frequency}),
    }
    return render(request, "library/follows.html", context)


@require_POST
@login_required_htmx
def digest_frequency(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = DigestFrequencyForm(request.POST)
    if not form.is_valid():
        # An ErrorList yields its messages as text.
        messages.error(request, " ".join(str(e) for errors in form.errors.values() for e in errors))
        return redirect("library:follows")
    DigestSettings.objects.update_or_create(
        user=request.user, defaults={"frequency": form.cleaned_data["frequency"]}
    )
    messages.success(request, f"Digest: {form.get_frequency_display()}.")
    return redirect("library:follows")


# Mail clients post RFC 8058's one-click body without a CSRF token: the signed token is the proof.
@csrf_exempt
@require_http_methods(["GET", "POST"])
def digest_unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """GET asks to confirm (link scanners follow links); POST turns the digest off."""
    user_id = digests.user_id_from_token(token)
    if user_id is None:
        raise Http404("This unsubscribe link is not valid.")
    if request.method == "POST":
        digests.turn_off(user_id)
        return render(request, "library/follows_unsubscribed.html")
    return render(request, "library/follows_unsubscribe.html", {"token": token})
