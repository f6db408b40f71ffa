"""The bookmark control's HTML, remembered per process: for the `reading` tags, which put it on
pages, and for the bookmark view, which answers a change with it."""

import functools
import re
import secrets
from types import SimpleNamespace

from django.conf import settings
from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.template.loader import get_template

from catalog.models import Source

from .models import Bookmark

# Stands in for the visitor's CSRF token in a remembered control: shaped like a token (64
# letters and digits), and random per process so no title or URL can ever contain it.
TOKEN_SLOT = secrets.token_hex(32)
CONTROL_TEMPLATE = "library/includes/bookmark_control.html"


# What may tell two copies of one source's control apart on a page (a section's slug).
OCCURRENCE = re.compile(r"[-\w]{1,80}")


def control_id(pk: int, occurrence: str = "") -> str:
    """The id of a source's control on a page, unique per occurrence; it is also the anchor a
    saved-without-JavaScript page returns to: `{% control_id source.pk occurrence as dom_id %}`."""
    return f"bookmark-{pk}-in-{occurrence}" if occurrence else f"bookmark-{pk}"


@functools.lru_cache(maxsize=4096)
def control_html(
    pk: int,
    slug: str,
    title: str,
    status: str,
    page_url: str,
    compact: bool,
    with_token: bool,
    occurrence: str,
    shared: bool = False,
) -> str:
    """One control, rendered from its template. Everything it shows is in the arguments (the
    template reads only the source's pk, slug and title), so a remembered copy cannot go stale;
    the CSRF token, which changes with each request, is left as a slot."""
    shown = _shown(pk, slug, title, status, occurrence, page_url, shared)
    return get_template(CONTROL_TEMPLATE).render(
        shown
        | {
            "csrf_token": TOKEN_SLOT if with_token else None,
            "compact": compact,
            "quiet": shared,
        }
    )


FIELDS_TEMPLATE = "library/includes/bookmark_control_fields.html"


@functools.lru_cache(maxsize=1024)
def fields_html(
    pk: int,
    slug: str,
    title: str,
    status: str,
    occurrence: str,
    page_url: str,
    focus: str,
    shared: bool = False,
) -> str:
    """The fields of one copy of a control, as a change returns them: like control_html,
    everything shown is in the arguments, and the CSRF token is a slot."""
    shown = _shown(pk, slug, title, status, occurrence, page_url, shared)
    return get_template(FIELDS_TEMPLATE).render(shown | {"focus": focus, "csrf_token": TOKEN_SLOT})


def _shown(
    pk: int, slug: str, title: str, status: str, occurrence: str, page_url: str, shared: bool
) -> dict[str, object]:
    """What every copy of a control shows: the source, its status and the page to return to."""
    return {
        "source": SimpleNamespace(pk=pk, slug=slug, title=title),
        "status": status,
        "choices": Bookmark.Status.choices,
        "next": page_url,
        "occurrence": occurrence,
        "shared": shared,
    }


def control_fields(
    request: HttpRequest,
    source: Source,
    status: str,
    *,
    occurrence: str,
    page_url: str,
    focus: str = "",
    shared: bool = False,
) -> str:
    """The fields of `source`'s control after a change (status "" when not saved), remembered
    per process as the controls on pages are, with this request's CSRF token put in. A
    `shared` control's fields are its buttons alone (see bookmark_form)."""
    render = fields_html.__wrapped__ if settings.DEBUG else fields_html
    args = (source.pk, source.slug, source.title, status, occurrence, page_url, focus, shared)
    html = render(*args)
    return html.replace(TOKEN_SLOT, get_token(request))
