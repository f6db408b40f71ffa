"""The note renderer: Markdown in, an inert allow-listed HTML fragment out."""

from html.parser import HTMLParser

import pytest

from readinglist.markdown import ALLOWED_TAGS, as_markup, render_markdown

from .xss_corpus import XSS_BODIES

# tests/notes/conftest.py clears the cache around every test, and that cache is a table.
pytestmark = pytest.mark.django_db

SAFE_SCHEMES = ("http://", "https://", "mailto:")


class Elements(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found.append((tag, dict(attrs)))

    handle_startendtag = handle_starttag


def elements(html: str) -> list[tuple[str, dict[str, str | None]]]:
    parser = Elements()
    parser.feed(html)
    return parser.found


def assert_inert(html: str) -> None:
    for tag, attrs in elements(html):
        assert tag in ALLOWED_TAGS, (tag, html)
        allowed = {"a": {"href", "rel"}, "ol": {"start"}}.get(tag, set())
        assert set(attrs) <= allowed, (tag, attrs, html)
        if tag == "a":
            assert (attrs["href"] or "").startswith(SAFE_SCHEMES), html
            assert {"nofollow", "noopener"} <= set((attrs["rel"] or "").split())


@pytest.mark.parametrize("body", XSS_BODIES)
def test_hostile_markdown_renders_inert(body: str) -> None:
    assert_inert(render_markdown(body))


@pytest.mark.parametrize("body", XSS_BODIES)
def test_hostile_markdown_has_no_live_markup(body: str) -> None:
    html = render_markdown(body)
    tags = {tag for tag, _ in elements(html)}
    assert not tags & {"script", "img", "svg", "iframe", "style", "object", "form", "math"}
    for _, attrs in elements(html):
        assert not any(name.startswith("on") for name in attrs)
        assert "style" not in attrs


def test_raw_html_is_shown_as_text() -> None:
    assert render_markdown("<b>bold?</b>") == "<p>&lt;b&gt;bold?&lt;/b&gt;</p>\n"


def test_javascript_links_are_not_links() -> None:
    for body in ("[x](javascript:alert(1))", "[x](JAVASCRIPT:alert(1))", "<javascript:alert(1)>"):
        assert "<a" not in render_markdown(body)


def test_data_links_are_not_links() -> None:
    assert "<a" not in render_markdown("[x](data:text/html,hi)")


def test_images_become_plain_links_and_load_nothing() -> None:
    html = render_markdown("![diagram](https://example.org/d.png)")
    assert "<img" not in html
    assert 'href="https://example.org/d.png"' in html


def test_links_get_nofollow_noopener() -> None:
    html = render_markdown("[paper](https://arxiv.org/abs/2205.14135)")
    assert html == (
        '<p><a href="https://arxiv.org/abs/2205.14135" rel="nofollow noopener noreferrer">'
        "paper</a></p>\n"
    )


def test_autolinks_and_mailto_are_kept() -> None:
    html = render_markdown("<https://example.org> and <mailto:ada@example.org>")
    assert 'href="https://example.org"' in html
    assert 'href="mailto:ada@example.org"' in html


def test_link_titles_are_dropped() -> None:
    assert "title" not in render_markdown('[x](https://example.org "hover text")')


def test_allowed_formatting_survives() -> None:
    html = render_markdown(
        "### Mechanism\n\n**tiling** _keeps_ `SRAM` ~~hot~~\n\n- one\n- two\n\n"
        "> quoted\n\n```\ncode()\n```\n\n---"
    )
    for fragment in (
        "<h5>Mechanism</h5>",
        "<strong>tiling</strong>",
        "<em>keeps</em>",
        "<code>SRAM</code>",
        "<s>hot</s>",
        "<ul>",
        "<li>one</li>",
        "<blockquote>",
        "<pre><code>code()\n</code></pre>",
        "<hr>",
    ):
        assert fragment in html


def test_headings_start_below_the_page_headings() -> None:
    assert render_markdown("# Top").startswith("<h3>Top</h3>")
    assert render_markdown("###### Deep").startswith("<h6>Deep</h6>")


def test_entities_stay_entities() -> None:
    html = render_markdown("&lt;script&gt; &amp; &copy;")
    assert "&lt;script&gt;" in html
    assert "<script" not in html


def test_as_markup_marks_stored_html_safe() -> None:
    html = render_markdown("*hi*")
    assert str(as_markup(html)) == html
    assert hasattr(as_markup(html), "__html__")
