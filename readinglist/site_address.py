"""The site's absolute address, for links read away from a request: emails, commands.

SITE_SCHEME (https with DEBUG off, http with DEBUG on) and SITE_DOMAIN say where readers reach
the site; allauth's own links follow the same scheme (ACCOUNT_DEFAULT_HTTP_PROTOCOL).
"""

from django.conf import settings


def site_url(path: str = "") -> str:
    """`path` (starting with /, or empty for the site's root) as an absolute URL."""
    return f"{settings.SITE_SCHEME}://{settings.SITE_DOMAIN}{path}"
