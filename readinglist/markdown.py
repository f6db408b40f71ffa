"""Markdown written by readers (notes, session agendas): parsed by markdown-it-py, then
sanitised by nh3 to a small allow-list.

Readers' HTML is hostile until nh3 has cleaned it. The HTML is rendered once when the row is
saved (Note.save, Session.save) and stored; pages show the stored copy. This module imports no
app, so every app may use it.
"""

import nh3
from django.utils.safestring import SafeString, mark_safe
from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore

ALLOWED_TAGS = {
    "p",
    "br",
    "em",
    "strong",
    "s",
    "del",
    "code",
    "pre",
    "ul",
    "ol",
    "li",
    "a",
    "blockquote",
    "h3",
    "h4",
    "h5",
    "h6",
    "hr",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
}
# "*": set() replaces nh3's generic defaults (title, lang): only these attributes survive.
ALLOWED_ATTRIBUTES = {"*": set(), "a": {"href"}, "ol": {"start"}}
URL_SCHEMES = {"http", "https", "mailto"}
LINK_REL = "nofollow noopener noreferrer"
# Tags removed together with their content (nh3 keeps the text of other disallowed tags).
DROP_WITH_CONTENT = {"script", "style"}

# A note sits under the page's h1 and the notes section's h2, so its headings start at h3.
HEADING_SHIFT = 2


def _shift_headings(state: StateCore) -> None:
    for token in state.tokens:
        if token.type in ("heading_open", "heading_close"):
            level = min(int(token.tag[1]) + HEADING_SHIFT, 6)
            token.tag = f"h{level}"


def _parser() -> MarkdownIt:
    # html=False: raw HTML in a note is shown as text, never passed through.
    # linkify=False: only explicit links become links. Images are turned off, so
    # ![alt](url) shows as text followed by a link instead of loading anything.
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.enable(["table", "strikethrough"])
    md.disable("image")
    md.core.ruler.push("shift_headings", _shift_headings)
    return md


_markdown = _parser()
_cleaner = nh3.Cleaner(
    tags=ALLOWED_TAGS,
    clean_content_tags=DROP_WITH_CONTENT,
    attributes=ALLOWED_ATTRIBUTES,
    url_schemes=URL_SCHEMES,
    link_rel=LINK_REL,
    strip_comments=True,
)


def render_markdown(text: str | None) -> str:
    """Markdown → sanitised HTML (a plain str, ready to store in Note.body_html)."""
    return _cleaner.clean(_markdown.render(text or ""))


def as_markup(stored_html: str) -> SafeString:
    """Mark stored Markdown HTML safe for templates.

    This is the project's one mark_safe on user-derived text, and it is justified because its
    input is only ever the output of render_markdown above: Note.body_html and
    Session.agenda_html are not editable in forms or the admin, and their models' save()
    overwrites them with render_markdown of the source text on every save.
    """
    return mark_safe(stored_html)
