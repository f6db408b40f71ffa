"""axe-core finds no serious or critical accessibility problem on any page, signed out and in,
in light and dark colour schemes.

axe is the npm package's axe.min.js, vendored in tests/e2e/vendor (version in its header, MPL-2.0)
so the test runs without network. Refresh it with:
    npm install --prefix /tmp/axe axe-core@4
    cp /tmp/axe/node_modules/axe-core/axe.min.js tests/e2e/vendor/
"""

from collections.abc import Callable
from pathlib import Path
from typing import Literal

import pytest
from django.urls import NoReverseMatch, reverse
from playwright.sync_api import Browser, Page
from pytest_django.live_server_helper import LiveServer

from accounts.models import User
from catalog.models import Source
from tests.hints import SmallCatalog

from .conftest import DESKTOP

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
SIGNED_OUT, SIGNED_IN, BOTH = "signed out", "signed in", "both"

# Every page template, by route name and arguments, and who can see it. Extend as pages land;
# routes that do not exist yet are left out (and listed in the failure message if none match).
PAGES = [
    ("pages:home", [], "", BOTH),
    ("pages:source-list", [], "", BOTH),
    ("pages:source-list", [], "?q=attention", BOTH),
    ("pages:source-list", [], "?q=zzzznothing", SIGNED_OUT),
    ("pages:source-detail", ["flashattention"], "", BOTH),
    ("pages:topic-detail", ["attention"], "", BOTH),
    ("pages:tier-detail", ["start-here"], "", BOTH),
    ("pages:tier-detail", ["core"], "", SIGNED_OUT),
    ("pages:list-detail", ["wafer"], "", BOTH),
    ("pages:topic-index", [], "", SIGNED_OUT),
    ("pages:tier-index", [], "", SIGNED_OUT),
    ("pages:list-index", [], "", SIGNED_OUT),
    ("catalog:changes", [], "", SIGNED_OUT),
    ("proposals:decision-log", [], "", SIGNED_OUT),
    ("proposals:propose", [], "", SIGNED_IN),
    ("proposals:my-proposals", [], "", SIGNED_IN),
    ("library:index", [], "", SIGNED_IN),
    ("library:import", [], "", SIGNED_IN),
    ("library:for-you", [], "", SIGNED_IN),
    ("library:export-cite", [], "?style=ieee", SIGNED_IN),
    ("catalog:source-cite-style", ["flashattention"], "?style=apa", BOTH),
    ("save:bookmarklet", [], "", BOTH),
    # The bookmarklet brought a passage: a note's and a thread's forms, or the passage to keep.
    (
        "save:save",
        [],
        "?url=https://arxiv.org/html/2205.14135v2&quote=IO-aware+attention",
        SIGNED_IN,
    ),
    ("save:save", [], "?url=https://example.org/unlisted&quote=A+passage", SIGNED_IN),
    ("notes:mine", [], "", SIGNED_IN),
    ("paths:index", [], "", SIGNED_IN),
    ("notes:team", [], "", SIGNED_IN),
    ("account_profile", [], "", SIGNED_IN),
    ("account_email", [], "", SIGNED_IN),
    ("account_change_password", [], "", SIGNED_IN),
    ("account_login", [], "", SIGNED_OUT),
    ("account_signup", [], "", SIGNED_OUT),
    ("account_reset_password", [], "", SIGNED_OUT),
    (None, [], "/no-such-page/", BOTH),  # the 404 page
]
SERIOUS = {"serious", "critical"}


def urls_for(audience: str) -> list[str]:
    urls: list[str] = []
    for name, args, suffix, who in PAGES:
        if who not in (audience, BOTH):
            continue
        if name is None:
            urls.append(suffix)
            continue
        try:
            urls.append(reverse(name, args=args) + suffix)
        except NoReverseMatch:
            continue
    return urls


def axe_problems(page: Page, url: str) -> list[str]:
    page.goto(url)
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{url}: [{v['impact']}] {v['id']}: {v['help']} — "
        + "; ".join(node["target"][0] for node in v["nodes"][:5])
        for v in result["violations"]
        if v["impact"] in SERIOUS
    ]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("audience", [SIGNED_OUT, SIGNED_IN])
def test_no_serious_accessibility_violations(
    browser: Browser,
    live_server: LiveServer,
    small_catalog: SmallCatalog,
    reader: User,
    log_in: Callable[[Page, User], None],
    audience: str,
    scheme: Literal["light", "dark"],
) -> None:
    # bypass_csp: axe is injected as an inline script, which the site's policy rightly refuses.
    context = browser.new_context(
        viewport=DESKTOP, base_url=live_server.url, color_scheme=scheme, bypass_csp=True
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    # The save page finds FlashAttention by the arXiv id of the address it is given.
    Source.objects.filter(slug="flashattention").update(arxiv_id="2205.14135")
    try:
        if audience == SIGNED_IN:
            log_in(page, reader)
        urls = urls_for(audience)
        assert len(urls) >= 8
        problems = [problem for url in urls for problem in axe_problems(page, url)]
    finally:
        context.close()
    assert problems == [], "\n".join(problems)
