"""The strict Content-Security-Policy holds: nothing inline that it would block.

Templates are read as text (every template in the repository, including ones no test renders),
and the pages people see are rendered and checked again, with allauth's own templates.
"""

import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from readinglist.local_server import BASE_DIR
from tests.hints import Response, SmallCatalog

INLINE_STYLE = re.compile(r"""\sstyle\s*=""", re.IGNORECASE)
INLINE_HANDLER = re.compile(r"""\son[a-z]+\s*=\s*["']""", re.IGNORECASE)
HX_ON = re.compile(r"""hx-on""", re.IGNORECASE)
SCRIPT_TAG = re.compile(r"""<script\b[^>]*>""", re.IGNORECASE)
TEMPLATE_FILES = sorted((BASE_DIR / "templates").rglob("*.html"))


def inline_problems(text: str) -> list[str]:
    problems = []
    for name, pattern in (
        ("style attribute", INLINE_STYLE),
        ("inline event handler", INLINE_HANDLER),
        ("hx-on attribute", HX_ON),
    ):
        problems += [f"{name}: {m.group(0).strip()}" for m in pattern.finditer(text)]
    for tag in SCRIPT_TAG.findall(text):
        if "src=" not in tag and "nonce" not in tag:
            problems.append(f"inline script without a nonce: {tag}")
    return problems


def test_the_patterns_catch_what_they_should() -> None:
    bad = (
        '<p style="color:red"></p><button onclick="x()"></button>'
        '<div hx-on:click="y"></div><script>alert(1)</script>'
    )
    assert len(inline_problems(bad)) == 4
    good = '<script src="/static/a.js" defer></script><script nonce="abc">x</script><p>onion</p>'
    assert inline_problems(good) == []


def test_templates_exist_to_check() -> None:
    assert len(TEMPLATE_FILES) > 10


@pytest.mark.parametrize(
    "template", TEMPLATE_FILES, ids=[str(p.relative_to(BASE_DIR)) for p in TEMPLATE_FILES]
)
def test_no_template_has_inline_code_or_styles(template: Path) -> None:
    assert inline_problems(template.read_text()) == []


# Pages to render, as (url name, args). Extend as features land.
PAGES = [
    ("pages:home", []),
    ("pages:source-list", []),
    ("pages:source-detail", ["flashattention"]),
    ("pages:topic-detail", ["attention"]),
    ("pages:tier-detail", ["start-here"]),
    ("pages:list-detail", ["wafer"]),
    ("account_login", []),
    ("account_signup", []),
    ("account_reset_password", []),
]


def check_page(response: Response) -> None:
    assert response.status_code in (200, 404)
    html = response.content.decode()
    assert inline_problems(html) == []
    csp = response["Content-Security-Policy"]
    for nonce in re.findall(r'<script\b[^>]*\bnonce="([^"]+)"', html):
        assert f"'nonce-{nonce}'" in csp


@pytest.mark.parametrize(("name", "args"), PAGES, ids=[name for name, _ in PAGES])
def test_rendered_pages_signed_out(
    client: Client, small_catalog: SmallCatalog, name: str, args: list[str]
) -> None:
    check_page(client.get(reverse(name, args=args)))


@pytest.mark.parametrize(("name", "args"), PAGES[:6], ids=[name for name, _ in PAGES[:6]])
def test_rendered_pages_signed_in(
    client: Client, small_catalog: SmallCatalog, reader: User, name: str, args: list[str]
) -> None:
    client.force_login(reader)
    check_page(client.get(reverse(name, args=args)))


def test_the_not_found_page(client: Client, db: None) -> None:
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    check_page(response)


def test_htmx_is_configured_for_a_strict_csp(client: Client, small_catalog: SmallCatalog) -> None:
    html = client.get("/").content.decode()
    assert '"includeIndicatorStyles": false' in html
    assert '"allowEval": false' in html
