"""Every source of the shipped catalog is recognised by /propose/check/ under every spelling
its identifiers allow: URL noise (tracking parameters, fragments, `www.`, letter case, a
trailing slash), arXiv abs/pdf/html pages with and without a version and the `arXiv:` prefix,
DOI URLs and the `doi:` prefix, and a repository's subpages. The variants are generated from
the catalog itself, so every source the file gains is covered."""

import io
from collections.abc import Iterator
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.core.management import call_command
from django.test import Client

from accounts.models import User
from catalog.catalog_file import DEFAULT_CATALOG
from catalog.identity import work_keys
from catalog.models import Source

pytestmark = pytest.mark.django_db


def _noisy(url: str) -> Iterator[str]:
    parts = urlsplit(url)
    host = parts.netloc
    other_host = host.removeprefix("www.") if host.startswith("www.") else f"www.{host}"
    tracking = f"{parts.query}&utm_source=newsletter" if parts.query else "utm_source=feed&fbclid=x"
    yield urlunsplit((parts.scheme, parts.netloc, parts.path, tracking, "section-2"))
    yield urlunsplit((parts.scheme, other_host, parts.path, parts.query, ""))
    yield urlunsplit((parts.scheme, host.upper(), parts.path + "/", parts.query, ""))
    if parts.scheme == "https" and not parts.query:
        yield f"http://{host}{parts.path}?ref=hn&gclid=1"


def _arxiv(paper: str) -> Iterator[str]:
    yield from (paper, f"arXiv:{paper}v2", f"arxiv:{paper}")
    for page in ("abs", "pdf", "html"):
        yield f"https://arxiv.org/{page}/{paper}"
        yield f"https://arxiv.org/{page}/{paper}v3"
    yield f"https://arxiv.org/pdf/{paper}v1.pdf"


def _doi(doi: str) -> Iterator[str]:
    yield from (doi, f"doi:{doi}", f"https://doi.org/{doi}", f"https://dx.doi.org/{doi}")


def _repository(name: str) -> Iterator[str]:
    base = f"https://github.com/{name}"
    yield from (f"{base}.git", f"{base}/tree/main", f"{base}/blob/main/README.md")
    yield from (f"{base}/releases", f"https://www.github.com/{name}/?utm_source=x")


def variants(source: Source) -> Iterator[str]:
    if source.url:
        yield from _noisy(source.url)
        if (keys := work_keys(source.url)) and keys.openreview:
            yield f"https://openreview.net/pdf?id={keys.openreview}"
            yield f"https://openreview.net/forum?id={keys.openreview}"
    if source.arxiv_id:
        yield from _arxiv(source.arxiv_id)
    if source.doi:
        yield from _doi(source.doi)
    if source.repository:
        yield from _repository(source.repository)


def test_every_catalogued_source_is_linked_under_every_spelling(
    client: Client, reader: User
) -> None:
    call_command("load_catalog", str(DEFAULT_CATALOG), stdout=io.StringIO(), stderr=io.StringIO())
    client.force_login(reader)
    checked, missed = 0, []
    for source in Source.objects.published().order_by("slug"):
        link = f'href="/sources/{source.slug}/"'
        for url in variants(source):
            response = client.get("/propose/check/", {"url": url}, headers={"HX-Request": "true"})
            checked += 1
            if response.status_code != 200 or link not in response.content.decode():
                missed.append((source.slug, url))
    assert missed == []
    assert checked > 3 * Source.objects.published().count()
