"""Threads and replies: start one on a source, read, reply, edit, delete, hide, answer.

Access is a queryset, not an `if`: a thread outside `visible_to(reader)` does not exist for
them (404, for visitors too), whatever its id. Every form posts and redirects without
JavaScript; htmx swaps the same template's partials.
"""

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from accounts.models import User
from catalog.models import Source
from readinglist import ratelimits
from readinglist.pagecache import page_cache
from readinglist.requests import HtmxHttpRequest
from teams.models import Membership, Session

from . import mentions, services
from .blocks import source_discussion_context
from .forms import ReplyForm, ThreadForm
from .models import Reply, Thread

THREAD_TEMPLATE = "discussions/thread.html"
POSTS_USED = (
    "You have posted {limit} time{s} in discussions in the last hour, the most one account "
    "may. Try again in {wait}; your text is kept here."
)


def _reader(request: HttpRequest) -> User:
    # Thread URLs answer visitors as they answer non-members: the thread does not exist.
    if not request.user.is_authenticated:
        raise Http404("No thread here.")
    assert isinstance(request.user, User)
    return request.user


def _thread(request: HttpRequest, pk: int) -> tuple[Thread, Membership]:
    user = _reader(request)
    thread = get_object_or_404(
        Thread.objects.visible_to(user).select_related("author", "team", "source"), pk=pk
    )
    member = Membership.objects.select_related("user").get(team_id=thread.team_id, user=user)
    return thread, member


MENTIONS_USED = (
    "You have mentioned teammates in {limit} post{s} in the last hour, the most one account "
    "may. Try again in {wait}, or post without the @names; your text is kept here."
)


def _refused(user: User, text: str) -> str:
    """Why this post may not be made now (rate limits), or ""."""
    refusal = ratelimits.consume(
        user_id=user.pk, action="discussions.post", limit=settings.DISCUSSIONS_POSTS_PER_HOUR
    )
    if refusal:
        return refusal.explain(POSTS_USED)
    if mentions.names_in(text):
        # Mentions send notifications to others: they have a budget of their own.
        refusal = ratelimits.consume(
            user_id=user.pk,
            action="discussions.mention",
            limit=settings.DISCUSSIONS_MENTIONING_POSTS_PER_HOUR,
        )
        if refusal:
            return refusal.explain(MENTIONS_USED)
    return ""


def _said_unknown(request: HttpRequest, found: mentions.Mentions) -> None:
    if found.unknown:
        names = ", ".join(f"@{name}" for name in found.unknown)
        messages.warning(request, f"Nobody in the team goes by {names}: nobody was told.")


def _thread_context(
    thread: Thread, member: Membership, reply_form: ReplyForm | None = None
) -> dict[str, Any]:
    replies = list(Reply.objects.filter(thread=thread).select_related("author"))
    return {
        "thread": thread,
        "member": member,
        "may_see": not thread.is_hidden or member.is_owner,
        "may_answer": thread.is_question
        and (member.user_id == thread.author_id or member.is_owner),
        "replies": replies,
        "reply_form": reply_form or ReplyForm(prefix_id="reply-new"),
    }


@page_cache(reader=True, team=True)
@vary_on_headers("HX-Request")
@require_GET
def thread_view(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    thread, member = _thread(request, pk)
    return render(request, THREAD_TEMPLATE, _thread_context(thread, member))


@page_cache(reader=True, team=True, params={"page"})
@vary_on_headers("HX-Request")
@require_http_methods(["GET", "POST"])
def source_threads_view(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """GET: every thread the reader's teams have on the source. POST: start one."""
    user = _reader(request)
    visible = Source.all_objects.visible_to(user).only("pk", "slug", "title", "url", "status")
    source = get_object_or_404(visible, slug=slug)
    if request.method == "POST":
        return _start_thread(request, user, source)
    threads = Thread.objects.listed_for(user).filter(source=source).for_display().newest()
    page = Paginator(threads, 50).get_page(request.GET.get("page"))
    return render(request, "discussions/source_threads.html", {"source": source, "page": page})


def _start_thread(request: HtmxHttpRequest, user: User, source: Source) -> HttpResponse:
    context = source_discussion_context(request, source)
    if not context["teams"]:
        raise Http404("No team here.")
    form = ThreadForm(request.POST, teams=context["teams"], prefix_id="thread-new")
    status = 400
    if form.is_valid():
        data = form.cleaned_data
        refusal = _refused(user, f"{data['title']}\n{data['body']}")
        if refusal:
            form.add_error(None, refusal)
            status = 429
        else:
            thread, found = services.start_thread(author=user, source=source, **data)
            _said_unknown(request, found)
            if not request.htmx:
                messages.success(request, "Thread started.")
                return redirect(thread)
            context = source_discussion_context(request, source)
            context["started"] = thread
            return render(request, "discussions/source_discussion.html#discussion", context)
    context["form"] = form
    template = "discussions/source_discussion.html"
    if request.htmx:
        template += "#discussion"
    else:
        template = "discussions/thread_start.html"
        # A page of its own has no discussion section for htmx to swap: the form just posts.
        context["standalone"] = True
    return render(request, template, context, status=status)


@vary_on_headers("HX-Request")
@require_POST
def reply_view(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    thread, member = _thread(request, pk)
    form = ReplyForm(request.POST, prefix_id="reply-new")
    status = 400
    if form.is_valid():
        refusal = _refused(member.user, form.cleaned_data["body"])
        if refusal:
            form.add_error(None, refusal)
            status = 429
        else:
            try:
                reply, found = services.add_reply(
                    thread=thread, author=member.user, body=form.cleaned_data["body"]
                )
            except services.ThreadClosed as closed:
                form.add_error(None, str(closed))
                thread.refresh_from_db()
                status = 409
            else:
                _said_unknown(request, found)
                if not request.htmx:
                    messages.success(request, "Reply posted.")
                    return redirect(reply)
                context = _thread_context(thread, member)
                context["posted"] = reply
                return render(request, f"{THREAD_TEMPLATE}#conversation", context)
    context = _thread_context(thread, member, reply_form=form)
    template = f"{THREAD_TEMPLATE}#conversation" if request.htmx else THREAD_TEMPLATE
    return render(request, template, context, status=status)


@require_http_methods(["GET", "POST"])
def thread_edit_view(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    thread, member = _thread(request, pk)
    if thread.author_id != member.user_id or not thread.is_open:
        raise Http404("No thread here.")
    fields = ["title", "body", "quote_exact", "quote_prefix", "quote_suffix", "is_question"]
    initial = {name: getattr(thread, name) for name in fields}
    form = ThreadForm(
        request.POST or None, initial=initial, teams=[], editing=True, prefix_id="thread-edit"
    )
    if request.method == "POST" and form.is_valid():
        services.edit_thread(thread=thread, **{name: form.cleaned_data[name] for name in fields})
        messages.success(request, "Thread saved.")
        return redirect(thread)
    status = 400 if form.errors else 200
    return render(
        request, "discussions/thread_edit.html", {"thread": thread, "form": form}, status=status
    )


@require_http_methods(["GET", "POST"])
def thread_delete_view(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    thread, member = _thread(request, pk)
    if thread.author_id != member.user_id or thread.is_deleted:
        raise Http404("No thread here.")
    if request.method == "GET":
        return render(request, "discussions/thread_delete.html", {"thread": thread})
    services.delete_thread(thread=thread)
    messages.success(request, "Thread deleted.")
    return redirect(thread.source)


@require_POST
def thread_hide_view(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    thread, member = _thread(request, pk)
    if not member.is_owner:
        raise Http404("No thread here.")
    hide = request.POST.get("hide") == "1"
    services.hide_thread(thread=thread, owner=member.user if hide else None)
    messages.success(request, "Thread hidden from members." if hide else "Thread shown again.")
    return redirect(thread)


@require_POST
def thread_answered_view(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    thread, member = _thread(request, pk)
    if not thread.is_question or not (member.is_owner or thread.author_id == member.user_id):
        raise Http404("No thread here.")
    reply = None
    if request.POST.get("reply"):
        reply = get_object_or_404(
            Reply.objects.filter(thread=thread, deleted_at__isnull=True),
            pk=_int(request.POST["reply"]),
        )
    services.mark_answered(thread=thread, reply=reply)
    messages.success(request, "Marked answered." if reply else "Marked open again.")
    return redirect(thread)


@require_POST
def thread_resolved_view(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    thread, member = _thread(request, pk)
    if not member.is_owner or not thread.is_question:
        raise Http404("No thread here.")
    session = None
    if request.POST.get("session"):
        session = get_object_or_404(
            Session.objects.filter(team_id=thread.team_id), pk=_int(request.POST["session"])
        )
    services.resolve_in_session(thread=thread, session=session)
    messages.success(request, "Marked resolved in the session." if session else "Open again.")
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
        back = thread.get_absolute_url()
    return redirect(back)


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise Http404("No such reply.") from None


def _own_reply(request: HttpRequest, pk: int) -> Reply:
    user = _reader(request)
    return get_object_or_404(
        Reply.objects.visible_to(user).select_related("thread"),
        pk=pk,
        author=user,
        deleted_at__isnull=True,
    )


@require_http_methods(["GET", "POST"])
def reply_edit_view(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    reply = _own_reply(request, pk)
    form = ReplyForm(request.POST or None, initial={"body": reply.body}, prefix_id="reply-edit")
    if request.method == "POST" and form.is_valid():
        services.edit_reply(reply=reply, body=form.cleaned_data["body"])
        messages.success(request, "Reply saved.")
        return redirect(reply)
    status = 400 if form.errors else 200
    return render(
        request, "discussions/reply_edit.html", {"reply": reply, "form": form}, status=status
    )


@require_POST
def reply_delete_view(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    reply = _own_reply(request, pk)
    services.delete_reply(reply=reply)
    messages.success(request, "Reply deleted.")
    return redirect(reply)
