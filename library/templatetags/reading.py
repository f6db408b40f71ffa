"""How catalog templates show a reader's state, without knowing the library's models.

Every tag reads the reader's library once per request (see library.reading), so a page of
100 cards costs one query for all their bookmark states, and anonymous visitors cost none.
"""

import functools
import operator
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from html import escape as escape_html
from typing import Any

from django import template
from django.conf import settings
from django.http import HttpRequest
from django.template import Context
from django.template.loader import get_template
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import SafeData, SafeString, mark_safe

from accounts.models import User
from catalog.models import ListEntry, ListSection, ReadingList, Source
from teams.models import Team

from .. import reading
from ..controls import OCCURRENCE, TOKEN_SLOT, control_html, control_id
from ..models import Dismissal
from ..team_progress import ListProgress
from ..team_progress import team_progress as team_progress_of

register = template.Library()


def _request(context: Context) -> HttpRequest | None:
    return context.get("request")


register.simple_tag(control_id)


def _visitor_token(context: Context) -> str | None:
    token = context.get("csrf_token")
    # The csrf_token tag renders nothing for a missing token or Django's "NOTPROVIDED".
    return str(token) if token and str(token) != "NOTPROVIDED" else None


@register.simple_tag(takes_context=True)
def bookmark_control(
    context: Context, source: Source, compact: bool = False, occurrence: str = ""
) -> SafeString:
    """The reader's bookmark form for `source`. A page lists many sources, and interpreting
    the template took most of a millisecond per card, so each process remembers the rendered
    controls (see control_html) and puts this request's CSRF token in.

    A page that shows one source more than once names each `occurrence` (a section's slug), so
    that ids stay unique and a change made in one copy can be shown in every copy. Inside a
    `{% bookmark_form %}` the control is compact buttons alone, which post through that form."""
    if occurrence and not OCCURRENCE.fullmatch(str(occurrence)):
        raise template.TemplateSyntaxError(f"Not an occurrence name: {occurrence!r}")
    request = _request(context)
    states = reading.request_states(request)
    token = _visitor_token(context)
    form_occurrence = context.get(_IN_FORM)
    shared = form_occurrence is not None
    if shared and str(occurrence) != form_occurrence:
        raise template.TemplateSyntaxError("A control in a bookmark_form names its occurrence.")
    args = (
        source.pk,
        source.slug,
        source.title,
        states.get(source.pk, ""),
        # A remembered card renders its control with a slot for the path (see source_card); a
        # shared form's control has no way back of its own.
        "" if shared else context.get("page_path") or (request.get_full_path() if request else ""),
        bool(compact) or shared,
        bool(token),
        str(occurrence),
        shared,
    )
    render = control_html.__wrapped__ if settings.DEBUG else control_html
    html = render(*args)
    return mark_safe(html.replace(TOKEN_SLOT, token) if token else html)


# Set in the context inside {% bookmark_form %}: the occurrence its controls belong to.
_IN_FORM = "_bookmark_form_occurrence"


_CHOICE_URL = functools.cache(lambda: reverse("library:bookmark-choice"))


class BookmarkFormNode(template.Node):
    def __init__(self, occurrence: template.base.FilterExpression, nodelist: template.NodeList):
        self.occurrence, self.nodelist = occurrence, nodelist

    def render(self, context: Context) -> SafeString:
        request = _request(context)
        token = _visitor_token(context)
        if not (token and request and request.user.is_authenticated):
            return self.nodelist.render(context)
        occurrence = str(self.occurrence.resolve(context))
        if not OCCURRENCE.fullmatch(occurrence):
            raise template.TemplateSyntaxError(f"Not an occurrence name: {occurrence!r}")
        with context.push({_IN_FORM: occurrence}):
            inner = self.nodelist.render(context)
        # The answer goes out of band into each copy of the changed control, so the form
        # swaps nothing itself.
        return format_html(
            '<form class="bookmark-form" method="post" action="{}" data-hx-post="{}"'
            ' data-hx-swap="none"><input type="hidden" name="csrfmiddlewaretoken" value="{}">'
            '<input type="hidden" name="next" value="{}">'
            '<input type="hidden" name="occurrence" value="{}">{}</form>',
            _CHOICE_URL(),
            _CHOICE_URL(),
            token,
            context.get("page_path") or request.get_full_path(),
            occurrence,
            inner,
        )


@register.tag
def bookmark_form(parser: template.base.Parser, token: template.base.Token) -> BookmarkFormNode:
    """`{% bookmark_form section.slug %}…{% endbookmark_form %}`: one form for the reader's
    controls of a long list (a list's section), so that each entry carries its buttons alone
    and not a form, a token and a way back of its own (a 120-entry list was 247 KB). A button's
    value names its source and status; the reader returns to the entry they changed."""
    bits = token.split_contents()
    if len(bits) != 2:
        raise template.TemplateSyntaxError("bookmark_form takes an occurrence name.")
    nodelist = parser.parse(("endbookmark_form",))
    parser.delete_first_token()
    return BookmarkFormNode(parser.compile_filter(bits[1]), nodelist)


@register.simple_tag(takes_context=True)
def reading_status(context: Context, source: Source) -> str:
    """The reader's status for `source` ("" when not saved): `{% reading_status s as status %}`."""
    return reading.request_states(_request(context)).get(source.pk, "")


@register.inclusion_tag("library/includes/team_finished.html", takes_context=True)
def team_finished(
    context: Context, source: Source, among: Iterable[Source | ListEntry | ListSection] = ()
) -> dict[str, Any]:
    """Per team of the viewer's, how many members finished `source`; nothing for visitors.

    `among` is what the page shows the figure for (its path's entries, or its list's sections),
    counted together in the first call: `{% team_finished entry.source among=sections %}`."""
    return {"figures": reading.team_finished(_request(context), source, among or ())}


@register.simple_tag
def team_progress(team: Team, with_names: bool = False, details: bool = True) -> list[ListProgress]:
    """Progress along the lists the team follows: `{% team_progress team owner as progress %}`;
    names of who is reading only `with_names` (for owners); the counts alone without
    `details` (the team page's one line per list)."""
    return team_progress_of(team, with_names=bool(with_names), details=bool(details))


@register.simple_tag
def reading_of(reader: User, sources: Iterable[Source]) -> list[tuple[Source, str]]:
    """[(source, status)] of `reader` for `sources` ("" when not saved), in one query: for mail,
    where no request holds the reader's library."""
    sources = list(sources)
    states = reading.states_for(reader, [source.pk for source in sources])
    return [(source, states.get(source.pk, "")) for source in sources]


@register.inclusion_tag("library/includes/team_reading.html")
def team_reading(team: Team) -> dict[str, Any]:
    """A team's members' latest changes of reading status (for the team's page)."""
    return {"team": team, "bookmarks": reading.team_recent_activity(team)}


@register.inclusion_tag("library/includes/team_active_members.html")
def team_active_members(team: Team) -> dict[str, Any]:
    """The members behind most of a team's latest reading changes (for the team's page)."""
    return {"team": team, "active": reading.team_active_members(team)}


def _progress_context(context: Context, sources: list[Source], **extra: Any) -> dict[str, Any]:
    request = _request(context)
    states = reading.request_states(request)
    return {
        "progress": reading.progress_along(sources, states),
        "user": context.get("user"),
        "request": request,
        **extra,
    }


@register.inclusion_tag("library/includes/path_progress.html", takes_context=True)
def path_progress(
    context: Context, path: Iterable[ListEntry] | None = None, inner: bool = False
) -> dict[str, Any]:
    """Progress along the Start-here path; `path` defaults to the page's `path` entries.

    `inner` renders only the region's content, which is what its in-place refresh swaps in.
    """
    entries = path if path is not None else context.get("path") or []
    return _progress_context(context, [entry.source for entry in entries], inner=inner)


@register.inclusion_tag("library/includes/list_progress.html", takes_context=True)
def list_progress(
    context: Context,
    reading_list: ReadingList,
    sections: Iterable[ListSection] | None = None,
    inner: bool = False,
) -> dict[str, Any]:
    """Progress along a reading list, in its sections' order; sections come prefetched."""
    sections = sections if sections is not None else context.get("sections") or []
    sources = [entry.source for section in sections for entry in section.entries.all()]
    return _progress_context(context, sources, reading_list=reading_list, inner=inner)


@register.inclusion_tag("library/includes/team_activity.html", takes_context=True)
def team_activity(context: Context, source: Source) -> dict[str, Any]:
    request = _request(context)
    return {"teams": reading.team_activity(source, request), "source": source}


CARD_TEMPLATE = "library/includes/source_card.html"

# The source fields CARD_TEMPLATE reads (with the tier's slug and name).
CARD_FIELDS = (
    "pk",
    "slug",
    "title",
    "status",
    "kind",
    "authors",
    "year",
    "summary",
    "verified_on",
    "awaiting_evidence",
)
_card_fields = operator.attrgetter(*CARD_FIELDS)

# What differs between pages that show the same card: the page's path (the card's way back),
# its marked title and its snippet. A card is rendered once with these slots, then each page puts
# its own text in; so a card rendered for one search serves every page showing that source with
# the same kind of text (a fresh search no longer renders its cards afresh).
_PATH_SLOT, _LABEL_SLOT, _SNIPPET_SLOT = (f"{TOKEN_SLOT[:32]}{n:032x}" for n in range(3))
# One pass over a card puts every value in: text put in is never searched for slots again.
_CARD_SLOTS = re.compile(re.escape(TOKEN_SLOT[:32]) + "(?:[0-9a-f]{32})")


class _Cards:
    """Rendered source cards by everything they show, for this process alone (bounded LRU)."""

    LIMIT = 4096  # a card and its key (which holds the summary) are 2-4 kB: ~15 MB at most

    def __init__(self) -> None:
        self._cards: OrderedDict[tuple[object, ...], str] = OrderedDict()
        self._lock = threading.Lock()  # gthread workers share it between threads

    def get(self, key: tuple[object, ...], render: Callable[[], str]) -> str:
        with self._lock:
            html = self._cards.get(key)
            if html is not None:
                self._cards.move_to_end(key)
                return html
        html = render()
        with self._lock:
            self._cards[key] = html
            while len(self._cards) > self.LIMIT:
                self._cards.popitem(last=False)
        return html


remembered_cards = _Cards()


def _slotted(text: object, slot: str) -> tuple[object, object, str | None]:
    """(what the card is rendered with, what its key holds, the HTML that replaces the slot)."""
    if not text:
        return "", "", None
    if isinstance(text, str):
        # The template prints it once, autoescaped (Django's escape() is html.escape()): that is
        # what goes in the slot.
        return slot, True, text.__html__() if hasattr(text, "__html__") else escape_html(text)
    # Anything else is rendered as it is (marked-up and plain text that read the same render
    # differently).
    return text, (str(text), isinstance(text, SafeData)), None


@register.simple_tag(takes_context=True)
def source_card(
    context: Context,
    source: Source,
    label: object = "",
    snippet: object = "",
    hide_summary: bool = False,
) -> SafeString:
    """A source card (CARD_TEMPLATE) with the reader's bookmark control.

    Interpreting the card template cost 90-170 µs a card, most of a search page's rendering, so
    each process remembers cards keyed by everything they show: the source's own fields and its
    tier's, today's date (the age badge), whether the summary shows, and what the control shows
    (the reader's status, whether the visitor is signed in). What varies from page to page (the
    page's path, a marked title, a snippet) and the CSRF token are slots filled per page, so a
    remembered card cannot go stale.
    """
    request = _request(context)
    token = _visitor_token(context)
    shown_label, label_key, label_html = _slotted(label, _LABEL_SLOT)
    shown_snippet, snippet_key, snippet_html = _slotted(snippet, _SNIPPET_SLOT)
    card_context = {
        "source": source,
        "label": shown_label,
        "snippet": shown_snippet,
        "hide_summary": hide_summary,
        "request": request,
        "page_path": _PATH_SLOT,
        "csrf_token": TOKEN_SLOT if token else None,
    }

    def render() -> str:
        return get_template(CARD_TEMPLATE).render(card_context)

    if settings.DEBUG:
        html = render()
    else:
        tier = source.tier
        key = (
            *_card_fields(source),
            tier.slug,
            tier.name,
            label_key,
            snippet_key,
            bool(hide_summary),
            reading.request_states(request).get(source.pk, ""),
            bool(token),
            bool(request and request.user.is_authenticated),  # visitors get a log-in link
            timezone.localdate(),  # the age badge
        )
        html = remembered_cards.get(key, render)
    values = {
        _PATH_SLOT: escape_html(request.get_full_path()) if request else "",
        _LABEL_SLOT: label_html,
        _SNIPPET_SLOT: snippet_html,
        TOKEN_SLOT: token,
    }
    # SafeString(), not mark_safe(), which first checks for lazy text: this is a str. A slot is
    # in the card only when its value is text (see _slotted).
    return SafeString(_CARD_SLOTS.sub(lambda slot: values[slot.group()] or "", html))


@register.inclusion_tag("library/includes/dismissal_note.html", takes_context=True)
def dismissal_note(context: Context, source: Source) -> dict[str, object]:
    """On a source's page, the reader's "Not for me" on it, with Undo: one query, readers only."""
    request = _request(context)
    user = getattr(request, "user", None)
    dismissal = None
    if user is not None and user.is_authenticated:
        dismissal = Dismissal.objects.filter(user=user, source=source).first()
    path = request.get_full_path() if request else ""
    return {"source": source, "dismissal": dismissal, "next": path, "request": request}
