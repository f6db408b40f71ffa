"""The seam through which other apps' pages show discussions:

    {% load discussions %}{% source_discussion source %}      the source page's id="discussion"
    {% team_open_questions team as questions %}                 the team page
    {% session_questions session as agenda %}                   a session's page and reminder
    {% notifications_link %}                                    the site header's count
    {% notification_email_setting %}                            the profile page's mail choice
    {% quoted_thread_form source passage %}                     the bookmarklet's save page

Each reads what it shows in one query whatever the number of threads; the pages that include
them have checked the reader is a member of the team they name.
"""

from typing import Any

from django import template
from django.template import Context
from django.urls import reverse
from django.utils.text import Truncator

from accounts.validators import one_line
from catalog.models import Source
from catalog.querysets import private_audience
from library.quoting import Passage
from library.reading import viewer_teams
from teams.models import Session, Team

from .. import counts, emails
from ..blocks import source_discussion_context
from ..forms import EmailModeForm, ThreadForm
from ..models import Thread
from ..quotes import quote_link

register = template.Library()

TEAM_PAGE_QUESTIONS = 10


@register.inclusion_tag("discussions/source_discussion.html", takes_context=True)
def source_discussion(context: Context, source: Source) -> dict[str, Any]:
    return {
        **source_discussion_context(context["request"], source),
        "csrf_token": context.get("csrf_token"),
    }


@register.simple_tag
def team_open_questions(team: Team) -> dict[str, Any]:
    found = list(
        Thread.objects.filter(team=team)
        .open_questions()
        .select_related("author", "source")
        .newest()[: TEAM_PAGE_QUESTIONS + 1]
    )
    return {"questions": found[:TEAM_PAGE_QUESTIONS], "more": len(found) > TEAM_PAGE_QUESTIONS}


@register.simple_tag
def session_questions(session: Session) -> dict[str, Any]:
    """The team's open questions on the session's sources, and those resolved in it."""
    rows = (
        Thread.objects.filter(team_id=session.team_id, source__in=session.sources.all())
        .filter(deleted_at__isnull=True, hidden_by__isnull=True, is_question=True)
        .select_related("author", "source")
        .order_by("source__title", "created", "pk")
    )
    open_rows, resolved = [], []
    for thread in rows:
        if thread.resolved_in_session_id == session.pk:
            resolved.append(thread)
        elif not thread.is_answered and thread.resolved_at is None:
            open_rows.append(thread)
    return {"open": open_rows, "resolved": resolved}


@register.inclusion_tag("discussions/includes/notifications_link.html", takes_context=True)
def notifications_link(context: Context) -> dict[str, Any]:
    # From the context, not the request: an error page raised before authentication has none.
    user = context.get("user")
    count = counts.unread_count(user.pk) if user is not None and user.is_authenticated else 0
    return {
        "count": count,
        "many": count > counts.SHOWN_MAX,
        "url": reverse("discussions:notifications"),
        "request": context.get("request"),
    }


@register.inclusion_tag("discussions/includes/email_setting_form.html", takes_context=True)
def notification_email_setting(context: Context) -> dict[str, Any]:
    """The signed-in reader's mail choice as a form posting to the discussions' own view,
    which comes back to the page it was on."""
    user = context["user"]
    request = context.get("request")
    return {
        "form": EmailModeForm(initial={"email_mode": emails.mode_of(user)}),
        "csrf_token": context.get("csrf_token"),
        "next": request.get_full_path() if request is not None else "",
    }


@register.filter
def excerpt(text: str, length: int = 280) -> str:
    """A post's first words on one line, for a mail's list (escaped where it is shown)."""
    return Truncator(one_line(text or "")).chars(length)


@register.filter
def passage_link(thread: Thread) -> str:
    """The source's address, opening at the quoted passage where the source is a web page."""
    return quote_link(
        thread.source.url, thread.quote_exact, thread.quote_prefix, thread.quote_suffix
    )


@register.inclusion_tag("discussions/includes/thread_form.html", takes_context=True)
def quoted_thread_form(context: Context, source: Source, passage: Passage) -> dict[str, Any]:
    """A thread on `source` quoting `passage` (its text-quote selector filled in), offered to
    the reader's own teams only (a team's own source: that team alone). It posts to the source's
    discussion address, which shows the form again with everything typed when something is
    wrong."""
    teams = viewer_teams(context["request"])
    audience = private_audience(source)
    if audience is not None:
        teams = [team for team in teams if team.pk in audience]
    initial = {
        "quote_exact": passage.exact,
        "quote_prefix": passage.prefix,
        "quote_suffix": passage.suffix,
    }
    return {
        "csrf_token": context.get("csrf_token"),
        "form": ThreadForm(teams=teams, initial=initial, prefix_id="thread-quote")
        if teams
        else None,
        "action": reverse("discussions:source", args=[source.slug]),
        "standalone": True,
    }
