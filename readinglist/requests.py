"""Request types for views, so the type checker knows what the middleware attaches.

django-htmx's middleware sets `request.htmx` on every request; Django's stubs do not know it.
Views annotate their request as `HtmxHttpRequest`, or behind a login check as
`accounts.requests.AuthenticatedHttpRequest`, where `request.user` is a signed-in reader rather
than `User | AnonymousUser`.
"""

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    """Any request after the middleware stack: `request.htmx` is truthy for htmx requests."""

    htmx: HtmxDetails
