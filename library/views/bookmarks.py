"""The reader's library: the bookmark control on every source, My library, bulk changes, and
progress along the Start-here path and the reading lists."""

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.html import format_html
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.safestring import mark_safe
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST
from django.views.decorators.vary import vary_on_headers

from accounts.requests import AuthenticatedHttpRequest
from catalog.lists import list_sections, path_entries
from catalog.models import ReadingList, Source
from catalog.source_refs import source_for_write
from readinglist.pagecache import page_cache
from readinglist.requests import HtmxHttpRequest
from readinglist.views import login_redirect, login_required_htmx

from .. import pending, reading, services
from ..controls import OCCURRENCE, control_fields, control_id
from ..forms import BookmarkActionForm, BulkActionForm, LibraryFilterForm
from ..models import Bookmark
from ..page import library_page


def safe_next(request: HttpRequest, candidate: str | None, fallback: str) -> str:
    if candidate and url_has_allowed_host_and_scheme(
        candidate, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return candidate
    return fallback


@require_POST
@vary_on_headers("HX-Request")
def bookmark(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The bookmark control: set a reading status, or remove the source from the library."""
    # The control shows the title and links by slug: the source's other columns stay unread.
    return _bookmark(request, source_for_write(slug, request.user), request.POST)


@require_POST
@vary_on_headers("HX-Request")
def bookmark_choice(request: HtmxHttpRequest) -> HttpResponse:
    """A list's shared bookmark form (`{% bookmark_form %}`): the pressed button's value names
    the source by id and the status ("12:read"), and the form names the page to return to."""
    pk, _, status = request.POST.get("choice", "").partition(":")
    if not pk.isdigit():
        raise Http404("No such source.")
    source = get_object_or_404(Source.objects.only("id", "slug", "title"), pk=int(pk))
    data = request.POST.copy()
    data["status"] = status
    return _bookmark(request, source, data, shared=True)


def _bookmark(
    request: HtmxHttpRequest, source: Source, data: QueryDict, *, shared: bool = False
) -> HttpResponse:
    form = BookmarkActionForm(data)
    if not form.is_valid():
        return render(
            request,
            "library/bookmark_error.html",
            {"source": source, "form": form},
            status=400,
        )
    action = form.cleaned_data["status"]
    candidate = form.cleaned_data["next"]
    if shared and candidate and "#" not in candidate:
        # A shared form names the page; the reader comes back to the entry they changed.
        candidate += "#" + control_id(source.pk, _occurrence(request))
    back = safe_next(request, candidate, source.get_absolute_url())

    if not request.user.is_authenticated:
        if action != services.REMOVE:
            pending.remember(request, source=source, action=action)
            messages.info(
                request, f"Log in to save “{source.title}”: it is saved when you are back."
            )
        return login_redirect(request, back)

    unsaved = form.cleaned_data["unsaved"]
    saved = services.apply_action(user=request.user, source=source, action=action, unsaved=unsaved)
    reading.forget_request_states(request)
    if request.htmx:
        status = saved.status if saved else ""
        response = HttpResponse(
            _controls_after_change(request, source, status, back, removed=not saved, shared=shared)
        )
        response["HX-Trigger"] = "bookmarks-changed"
        return response
    if saved:
        messages.success(request, f"Saved “{source.title}” as {saved.get_status_display()}.")
    else:
        messages.success(request, f"Removed “{source.title}” from your library.")
    return redirect(back)


def _occurrence(request: HttpRequest) -> str:
    target = request.POST.get("occurrence", "")
    return target if OCCURRENCE.fullmatch(target) else ""


def _occurrences(values: list[str]) -> list[str]:
    """The copies of a control a page names (at most a few dozen), each a valid occurrence."""
    return list(
        dict.fromkeys(value for value in values[:50] if value == "" or OCCURRENCE.fullmatch(value))
    )


def _controls_after_change(
    request: HttpRequest, source: Source, status: str, back: str, *, removed: bool, shared: bool
) -> str:
    """The changed control's new fields, then the same fields for every other copy of the
    source's control on the page, swapped out of band so that all copies show the change. A
    shared form swaps nothing itself: every copy, the changed one too, comes out of band."""
    target = _occurrence(request)
    # Each copy's form sends the page's URL with its own anchor appended.
    page_url = back.split("#", 1)[0]

    def fields(occurrence: str, focus: str = "") -> str:
        return control_fields(
            request,
            source,
            status,
            occurrence=occurrence,
            page_url=page_url,
            focus=focus,
            shared=shared,
        )

    def out_of_band(occurrence: str, focus: str = "") -> str:
        return format_html(
            '<div id="{}" data-hx-swap-oob="innerHTML">{}</div>',
            control_id(source.pk, occurrence),
            mark_safe(fields(occurrence, focus)),
        )

    # htmx puts focus back on the clicked button by its id; only Remove, whose button goes
    # away, needs `autofocus` to land on the first status instead.
    focus = Bookmark.Status.TO_READ if removed else ""
    parts = [out_of_band(target, focus) if shared else fields(target, focus=focus)]
    for occurrence in _occurrences(request.POST.getlist("copies")):
        if occurrence != target:
            parts.append(out_of_band(occurrence))
    return "".join(parts)


@page_cache(reader=True, params={*LibraryFilterForm.base_fields, "page"})
@require_GET
@login_required_htmx
@vary_on_headers("HX-Request")
def library(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = LibraryFilterForm(request.GET)
    context = library_page(request.user, form, request.GET.get("page"))
    template = "library/library.html"
    if request.htmx:
        # The counts refresh after a bookmark changes; "Show more" appends a group's next page;
        # the results refresh after a filter changes.
        target = request.htmx.target or ""
        if target == "library-counts":
            template += "#counts"
        elif target.startswith("more-"):
            template += "#more"
        else:
            template += "#results"
    return render(request, template, context)


@require_POST
@login_required_htmx
def bulk_change(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = BulkActionForm(request.POST)
    back = safe_next(request, request.POST.get("next"), reverse("library:index"))
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, str(error))  # an ErrorList yields its messages as text
        return redirect(back)
    ids = form.cleaned_data["bookmarks"]
    if Bookmark.objects.of(request.user).filter(pk__in=ids).count() != len(ids):
        raise Http404("No such bookmark in your library.")
    action = form.cleaned_data["action"]
    changed = services.bulk_apply(user=request.user, bookmark_ids=ids, action=action)
    label = form.get_action_display()
    if action == services.REMOVE:
        messages.success(
            request,
            ngettext("Removed %(count)d source.", "Removed %(count)d sources.", changed)
            % {"count": changed},
        )
    else:
        messages.success(
            request,
            ngettext(
                "Marked %(count)d source as %(label)s.",
                "Marked %(count)d sources as %(label)s.",
                changed,
            )
            % {"count": changed, "label": label},
        )
    return redirect(back)


@require_GET
@login_required_htmx
@vary_on_headers("HX-Request")
def path_progress(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The reader's progress along the Start-here path (refreshed in place after a change)."""
    path = path_entries()
    context = {"path": path}
    if request.htmx:
        return render(request, "library/includes/path_progress_refresh.html", context)
    return render(request, "library/path_progress.html", context)


@require_GET
@login_required_htmx
@vary_on_headers("HX-Request")
def list_progress(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    reading_list = get_object_or_404(ReadingList, slug=slug)
    context = {"reading_list": reading_list, "sections": list_sections(reading_list)}
    if request.htmx:
        return render(request, "library/includes/list_progress_refresh.html", context)
    return render(request, "library/list_progress.html", context)
