"""Reading together: A selects a sentence in an arXiv HTML paper (a copy served on another
origin that names arxiv.org as its canonical address), the bookmarklet brings it here, and A
asks the team about it, mentioning B. B sees the count in the header and replies; A marks the
question answered by that reply; the team's next session lists the question still open."""

import functools
import threading
from collections.abc import Callable, Iterator
from datetime import timedelta
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, BrowserContext, Page, expect
from pytest_django import Settings
from pytest_django.live_server_helper import LiveServer

from accounts.models import User
from discussions import services as discussions
from discussions.models import Thread
from teams.models import Session
from tests.factories import UserFactory, join_team
from tests.hints import SmallCatalog

PASSAGE = "an IO-aware exact attention algorithm that uses tiling"
PAPER = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>FlashAttention: Fast and Memory-Efficient Exact Attention with IO-Awareness</title>
<link rel="canonical" href="https://arxiv.org/html/2205.14135v2">
</head><body><article class="ltx_document">
<h1 class="ltx_title">FlashAttention: Fast and Memory-Efficient Exact Attention</h1>
<div class="ltx_abstract"><h6>Abstract</h6>
<p class="ltx_p" id="abstract">Transformers are slow and memory-hungry on long sequences. We
argue that a missing principle is making attention algorithms IO-aware. We propose
FlashAttention, {PASSAGE} to reduce the number of memory reads and writes between GPU high
bandwidth memory and on-chip SRAM.</p></div>
</article></body></html>
"""


@pytest.fixture
def arxiv_copy(tmp_path: Path) -> Iterator[str]:
    """The paper's HTML on 127.0.0.1 (the live server is `localhost`: another origin)."""
    (tmp_path / "paper.html").write_text(PAPER)
    handler = functools.partial(QuietHandler, directory=str(tmp_path))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}/paper.html"
    server.shutdown()
    server.server_close()


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def new_page(browser: Browser, live_server: LiveServer) -> tuple[BrowserContext, Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, base_url=live_server.url)
    page = context.new_page()
    page.set_default_timeout(15_000)
    return context, page


def select_passage(page: Page) -> None:
    page.evaluate(
        """passage => {
            const text = document.getElementById("abstract").firstChild;
            const flat = text.data.replace(/\\s+/g, " ");
            // The page's line breaks count as one character each, as spaces do.
            const start = flat.indexOf(passage);
            const range = document.createRange();
            range.setStart(text, start);
            range.setEnd(text, start + passage.length);
            getSelection().removeAllRanges();
            getSelection().addRange(range);
        }""",
        PASSAGE,
    )


def test_a_quoted_question_reaches_the_teammate_and_the_next_session(
    browser: Browser,
    live_server: LiveServer,
    small_catalog: SmallCatalog,
    log_in: Callable[[Page, User], None],
    arxiv_copy: str,
    settings: Settings,
) -> None:
    settings.SITE_DOMAIN = live_server.url.removeprefix("http://")
    flash = small_catalog["flash"]
    flash.url, flash.arxiv_id = "https://arxiv.org/abs/2205.14135", "2205.14135"
    flash.save()
    ana = UserFactory(email="ana@example.com", display_name="Ana")
    bo = UserFactory(email="bo@example.com", display_name="Bo")
    team = join_team(ana, bo, slug="kernels")
    # A teammate's question on the same paper, still open, and the team's next session on it.
    other = discussions.start_thread(
        author=bo, team=team, source=flash, title="What sets the block size?", is_question=True
    )[0]
    session = Session.objects.create(
        team=team, title="FlashAttention night", starts_at=timezone.now() + timedelta(days=3)
    )
    session.sources.add(flash)

    ana_context, page = new_page(browser, live_server)
    log_in(page, ana)
    page.goto("/save/bookmarklet/")
    href = page.locator("#bookmarklet").get_attribute("href")
    assert href is not None
    code = unquote(href.removeprefix("javascript:"))
    page.goto(arxiv_copy)
    select_passage(page)
    with page.expect_navigation():
        page.evaluate(code)

    expect(page.get_by_role("heading", level=1)).to_have_text("Keep a passage")
    expect(page.locator(".saved-passage mark")).to_have_text(PASSAGE)
    choice = page.get_by_role("region", name="Start a team thread")
    choice.get_by_label("Title or question").fill("Why is tiling still exact, @bo?")
    choice.get_by_label("This is a question").check()
    choice.get_by_role("button", name="Start the thread").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Why is tiling still exact, @bo?")
    thread = Thread.objects.get(author=ana)
    assert thread.quote_exact == PASSAGE and thread.is_question
    assert thread.quote_prefix.endswith("We propose FlashAttention,")
    assert thread.quote_suffix.startswith("to reduce the number")

    bo_context, bo_page = new_page(browser, live_server)
    log_in(bo_page, bo)
    bo_page.goto("/")
    count = bo_page.locator("header").get_by_role("link", name="Notifications 1 unread")
    expect(count).to_be_visible()
    count.click()
    bo_page.get_by_role("link", name=thread.title).click()
    bo_page.get_by_label("Reply").fill("Tiles are rescaled with the running softmax max.")
    bo_page.get_by_role("button", name="Post the reply").click()
    expect(bo_page.get_by_text("Tiles are rescaled")).to_be_visible()
    bo_context.close()

    page.goto(thread.get_absolute_url())
    page.get_by_role("button", name="This answers the question").click()
    expect(page.get_by_text("the answer", exact=True)).to_be_visible()
    thread.refresh_from_db()
    assert thread.answered_by_reply is not None

    page.goto(f"/teams/{team.slug}/sessions/{session.pk}/")
    agenda = page.get_by_role("region", name="Open questions on this reading")
    expect(agenda.get_by_role("link", name=other.title)).to_be_visible()
    expect(agenda.get_by_role("link", name=thread.title)).to_have_count(0)
    ana_context.close()
