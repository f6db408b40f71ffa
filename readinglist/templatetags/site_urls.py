"""`{% url %}` without a reverse() per link: reverse() costs about 25 µs a call.

`{% fixed_url %}` is for links whose arguments never change: every page's header, menu and
footer link to the same twenty views (half a millisecond a page). `{% slug_url %}` is for views
whose one argument is a slug, such as each card's two links (reversed once, the slug put in).
"""

import functools
import re
import secrets

from django import template
from django.conf import settings
from django.urls import get_script_prefix, get_urlconf, reverse

# What the slug path converter accepts, which reverse() prints as it is (nothing to quote).
SLUG = re.compile(r"[-a-zA-Z0-9_]+")
# A slug no URL holds otherwise: it marks where each slug goes.
_SLUG_SLOT = f"slug-{secrets.token_hex(16)}"

register = template.Library()


@functools.lru_cache(maxsize=256)
def _reversed(
    viewname: str,
    args: tuple[object, ...],
    current_app: str | None,
    prefix: str,
    urlconf: str | None,
) -> str:
    # prefix and urlconf are what reverse() reads for itself: they are part of the key only.
    return reverse(viewname, args=args, current_app=current_app)


def _current_app(context: template.Context) -> str | None:
    """The current application, found as the url tag finds it (a plain Context has no request)."""
    request = getattr(context, "request", None)
    try:
        # The request may be None (caught below); the stubs type current_app on HttpRequest only.
        current_app: str | None = request.current_app  # type: ignore[union-attr]
    except AttributeError:
        current_app = getattr(getattr(request, "resolver_match", None), "namespace", None)
    return current_app


@register.simple_tag(takes_context=True)
def fixed_url(context: template.Context, viewname: str, *args: object) -> str:
    """What `{% url viewname *args %}` prints, remembered by everything it depends on: the
    arguments, the current application (as the url tag finds it), the script prefix and the
    URLconf. Meant for constant arguments: each distinct call is kept (up to 256)."""
    urlconf = get_urlconf() or settings.ROOT_URLCONF
    return _reversed(viewname, args, _current_app(context), get_script_prefix(), urlconf)


@register.simple_tag(takes_context=True)
def slug_url(context: template.Context, viewname: str, slug: object) -> str:
    """What `{% url viewname slug %}` prints for a view whose one argument is a `<slug:…>`: the
    view's URL reversed once with a slot for the slug (as fixed_url remembers it), the slug put
    in its place."""
    slug = str(slug)
    if not SLUG.fullmatch(slug):
        return reverse(viewname, args=[slug], current_app=_current_app(context))
    return fixed_url(context, viewname, _SLUG_SLOT).replace(_SLUG_SLOT, slug)
