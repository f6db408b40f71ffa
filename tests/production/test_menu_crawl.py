"""Every page is reachable from the menus: a crawl from home, following the links a reader sees.

The crawl is breadth-first over same-site links in the header menu, the footer and page bodies.
It follows at most two links to any one kind of page (one view), so that the dozens of source
cards on home do not use up its budget before it reaches the pages only a menu leads to.
"""

import re
from collections import Counter, deque
from html import unescape
from urllib.parse import urlsplit

import pytest
from django.test import Client
from django.urls import NoReverseMatch, Resolver404, resolve, reverse

from catalog.services import LoadReport

pytestmark = pytest.mark.django_db

LIMIT = 60
PER_VIEW = 2
LINK = r"<a\b([^>]*)>"
KEY_PAGES = [
    "/library/",
    "/library/notes/",
    "/notes/team/",
    "/proposals/",
    "/propose/",
    "/accounts/profile/",
    "/teams/",
    "/topics/",
    "/tiers/",
    "/lists/",
    "/changes/",
    "/proposals/decisions/",
    "/library/import/",
    "/save/bookmarklet/",
]
# Not pages: the admin has its own navigation, and these answer with files or feeds.
SKIPPED_PREFIXES = ("/admin/", "/static/", "/media/")


def key_pages() -> list[str]:
    try:
        return [*KEY_PAGES, reverse("library:for-you")]
    except NoReverseMatch:  # "For you" is not part of every build of the app
        return KEY_PAGES


def links(html: str) -> list[str]:
    found = []
    for attributes in re.findall(LINK, html):
        href = re.search(r'\bhref="([^"]*)"', attributes)
        if not href or re.search(r"\bdownload\b", attributes):
            continue
        url = unescape(href.group(1)).split("#", 1)[0]
        if url.startswith("/") and not url.startswith("//"):
            found.append(url)
    return found


def crawl(client: Client) -> set[str]:
    """The paths of the HTML pages reached from home."""
    reached: set[str] = set()
    per_view: Counter[str] = Counter()
    queued = {"/"}
    queue = deque(["/"])
    while queue and len(reached) < LIMIT:
        url = queue.popleft()
        response = client.get(url)
        if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
            continue
        reached.add(urlsplit(url).path)
        for link in links(response.content.decode()):
            path = urlsplit(link).path
            if link in queued or path.startswith(SKIPPED_PREFIXES):
                continue
            try:
                view = resolve(path).view_name
            except Resolver404:
                continue
            if per_view[view] >= PER_VIEW:
                continue
            per_view[view] += 1
            queued.add(link)
            queue.append(link)
    return reached


@pytest.mark.parametrize("who", ["reader", "maintainer"])
def test_every_key_page_is_reachable_from_home(
    client: Client, full_catalog: LoadReport, request: pytest.FixtureRequest, who: str
) -> None:
    client.force_login(request.getfixturevalue(who))
    reached = crawl(client)
    missing = [page for page in key_pages() if page not in reached]
    assert not missing, f"not reachable from home as a {who}: {missing}; reached {sorted(reached)}"
