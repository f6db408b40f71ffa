"""Every form that carries a CSRF token or draft text sends it by POST: a GET would put the token
and what the reader typed in the URL, the browser's history and the access log.

The site is crawled from home and from the key pages, as a visitor and as a reader with a team, a
note, a bookmark and a proposal, and every form on every page reached is checked.
"""

from collections import Counter, deque
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.test import Client
from django.urls import Resolver404, resolve

from accounts.models import User
from library.services import set_status
from teams import services as teams
from tests.factories import NoteFactory
from tests.hints import SmallCatalog
from tests.production.test_menu_crawl import SKIPPED_PREFIXES, key_pages, links
from tests.proposals.helpers import make_proposal

pytestmark = pytest.mark.django_db

LIMIT = 90
PER_VIEW = 2
# Fields whose value is the reader's own words or a secret.
DRAFT_FIELDS = {"textarea", "password"}


class FormScanner(HTMLParser):
    """Collects what each form would send, and how."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[dict] = []
        self.open: list[dict] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if tag == "form":
            form: dict[str, Any] = {
                "method": (attributes.get("method") or "get").lower(),
                "action": attributes.get("action", ""),
                "csrf": False,
                "draft": False,
                "get_buttons": [],
                "live_gets": [],
            }
            self.forms.append(form)
            self.open.append(form)
            return
        if not self.open:
            return
        form = self.open[-1]
        kind = (attributes.get("type") or "").lower()
        if tag == "input" and attributes.get("name") == "csrfmiddlewaretoken":
            form["csrf"] = True
        if tag == "textarea" or (tag == "input" and kind in DRAFT_FIELDS):
            form["draft"] = True
        if (attributes.get("formmethod") or "").lower() == "get":
            form["get_buttons"].append(attributes.get("formaction", ""))
        # A GET that sends only its own field (a search as the reader types) carries no token
        # and no draft; one that would send its form's other answers does.
        if (
            tag in ("input", "textarea", "select")
            and "data-hx-get" in attributes
            and attributes.get("data-hx-include") != "this"
        ):
            form["live_gets"].append(attributes["data-hx-get"])

    def handle_endtag(self, tag: str) -> None:
        if tag == "form" and self.open:
            self.open.pop()


def problems(html: str) -> list[str]:
    scanner = FormScanner()
    scanner.feed(html)
    found = []
    for form in scanner.forms:
        carries = form["csrf"] or form["draft"]
        what = "a CSRF token" if form["csrf"] else "draft text"
        if carries and form["method"] != "post":
            found.append(f"form to {form['action']!r} sends {what} by {form['method'].upper()}")
        if carries:
            found += [f"button to {a!r} sends {what} by GET" for a in form["get_buttons"]]
            found += [f"a field live-checks by GET at {url!r}" for url in form["live_gets"]]
    return found


def crawl(client: Client, seeds: list[str]) -> dict[str, str]:
    """The HTML of every page reached from the seeds, at most PER_VIEW pages of one view."""
    pages: dict[str, str] = {}
    per_view: Counter[str] = Counter()
    queue = deque(seeds)
    queued = set(seeds)
    while queue and len(pages) < LIMIT:
        url = queue.popleft()
        response = client.get(url)
        if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
            continue
        pages[url] = response.content.decode()
        for link in links(pages[url]):
            path = urlsplit(link).path
            if link in queued or path.startswith(SKIPPED_PREFIXES) or "/logout" in path:
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
    return pages


def test_the_scanner_finds_what_the_issue_reported() -> None:
    html = (
        '<form method="post" action="/propose/"><input type="hidden" name="csrfmiddlewaretoken">'
        '<textarea name="mechanism"></textarea>'
        '<button formaction="/propose/check/" formmethod="get">Check</button></form>'
        '<form action="/x/"><textarea name="body"></textarea></form>'
        '<form method="get" action="/sources/"><input name="q"></form>'
    )
    assert problems(html) == [
        "button to '/propose/check/' sends a CSRF token by GET",
        "form to '/x/' sends draft text by GET",
    ]


@pytest.fixture
def reader_with_things(reader: User, other_reader: User, small_catalog: SmallCatalog) -> User:
    team = teams.create_team(name="Readers", owner=reader)
    teams.Membership.objects.create(team=team, user=other_reader)
    NoteFactory(user=reader, source=small_catalog["flash"], body="Mine.")
    set_status(user=reader, source=small_catalog["flash"], status="reading")
    make_proposal(small_catalog, reader)
    return reader


def test_visitors_pages_send_tokens_and_drafts_by_post(
    client: Client, small_catalog: SmallCatalog
) -> None:
    pages = crawl(client, ["/", "/accounts/login/", "/accounts/signup/", "/save/bookmarklet/"])
    assert len(pages) > 15
    found = {url: problems(html) for url, html in pages.items()}
    assert not {url: p for url, p in found.items() if p}


def test_readers_pages_send_tokens_and_drafts_by_post(
    client: Client, reader_with_things: User
) -> None:
    client.force_login(reader_with_things)
    pages = crawl(client, ["/", *key_pages(), "/teams/readers/", "/propose/?url=https://x.org/a"])
    assert {"/propose/", "/teams/readers/", "/accounts/profile/"} <= set(pages)
    found = {url: problems(html) for url, html in pages.items()}
    assert not {url: p for url, p in found.items() if p}
