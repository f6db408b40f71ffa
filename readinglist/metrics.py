"""Prometheus metrics (django-prometheus: requests, latency and responses per view, database
and cache calls), served at /metrics to a scraper that presents METRICS_TOKEN.

The endpoint is answered with the probes, before host validation and the HTTPS redirect, since
a scraper comes by an internal address over plain HTTP. It shows counts and timings only, but
which views are busy is still the operator's business: without a configured token, or with a
wrong one, it answers 404 like any unknown address.
"""

import hmac

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django_prometheus.exports import ExportToDjangoView
from prometheus_client import Counter

PAGE_CACHE = Counter(
    "readinglist_page_cache_total",
    "Pages under a cache policy: served from the page cache (hit) or rendered and offered to it "
    "(miss).",
    ["result"],
)


def presented_token(request: HttpRequest) -> str:
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


def metrics(request: HttpRequest) -> HttpResponse:
    expected = settings.METRICS_TOKEN
    if not expected or not hmac.compare_digest(presented_token(request), expected):
        raise Http404("No metrics here.")
    return ExportToDjangoView(request)
