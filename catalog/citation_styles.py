"""References formatted in a citation style (APA, IEEE, ACM, Chicago), as text and as HTML.

citeproc-py renders the same CSL-JSON the site exports (citations.to_csl) with the styles' own CSL
files, shipped in catalog/data/csl/ (see its README for their licence); nothing here knows how a
style punctuates.
"""

import html
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from citeproc import (
    Citation,
    CitationItem,
    CitationStylesBibliography,
    CitationStylesStyle,
    formatter,
)
from citeproc.source.json import CiteProcJSON
from django.contrib.auth.models import AnonymousUser
from django.utils.safestring import mark_safe

from accounts.models import User

from .citations import to_csl
from .models import CitationPreference, Source

STYLE_DIR = Path(__file__).parent / "data" / "csl"
DEFAULT_STYLE = "apa"


@dataclass(frozen=True)
class Style:
    key: str
    label: str
    file: str


STYLES: dict[str, Style] = {
    style.key: style
    for style in (
        Style("apa", "APA (7th edition)", "apa.csl"),
        Style("ieee", "IEEE", "ieee.csl"),
        Style("acm", "ACM", "association-for-computing-machinery.csl"),
        Style("chicago", "Chicago (author-date)", "chicago-author-date.csl"),
    )
}
STYLE_CHOICES = [(style.key, style.label) for style in STYLES.values()]

# Numeric styles put the number in a margin column ("[1]" then the reference); as one line of text
# the two need a space between them.
MARGIN_NUMBER = re.compile(r"^(\[\d+\])(?=\S)")
TAG = re.compile(r"<[^>]*>")


class _SmallCaps(str):
    """Small capitals as a class, not citeproc's inline style attribute (the CSP forbids those)."""

    def __new__(cls, text: str) -> "_SmallCaps":
        return super().__new__(cls, f'<span class="small-caps">{text}</span>')


# The HTML formatter with one change; its other wrappers (<i>, <b>, <sup>…) carry no attributes.
_HTML = SimpleNamespace(**{name: getattr(formatter.html, name) for name in dir(formatter.html)})
_HTML.SmallCaps = _SmallCaps


@dataclass(frozen=True)
class Reference:
    text: str
    html: str


def style_or_default(key: str | None) -> Style:
    return STYLES.get(key or "", STYLES[DEFAULT_STYLE])


def default_style(user: User | AnonymousUser | None) -> Style:
    """The reader's chosen default style, or the site's (for a visitor too)."""
    if user is None or not user.is_authenticated:
        return STYLES[DEFAULT_STYLE]
    chosen = CitationPreference.objects.filter(user=user).values_list("style", flat=True).first()
    return style_or_default(chosen)


def chosen_style(key: str | None, user: User | AnonymousUser) -> tuple[Style, Style]:
    """The style the address names (when it is one), else the reader's default; and that default,
    so that the page can offer to change it."""
    default = default_style(user)
    return STYLES.get(key or "", default), default


def set_default_style(user: User, key: str) -> Style:
    """Make a known style the reader's default (KeyError for an unknown one)."""
    style = STYLES[key]
    CitationPreference.objects.update_or_create(user=user, defaults={"style": style.key})
    return style


@cache
def _parsed(file: str) -> CitationStylesStyle:
    return CitationStylesStyle(str(STYLE_DIR / file), validate=False)


def _escaped(value: Any) -> Any:
    """Every string of a CSL item escaped for HTML: citeproc copies variables into its output
    verbatim, so a title like "<script>" would otherwise reach the page as markup."""
    if isinstance(value, str):
        return html.escape(value, quote=False)
    if isinstance(value, list):
        return [_escaped(part) for part in value]
    if isinstance(value, dict):
        return {key: part if key == "id" else _escaped(part) for key, part in value.items()}
    return value


def _render(items: list[dict[str, object]], style: Style, output: Any) -> list[str]:
    bibliography = CitationStylesBibliography(_parsed(style.file), CiteProcJSON(items), output)
    for item in items:
        bibliography.register(Citation([CitationItem(item["id"])]))
    # In the order given (the reader's or the list's): the bibliography is never sorted here.
    rendered = [str(entry) for entry in bibliography.bibliography()]
    if len(rendered) != len(items):  # a style that renders nothing for some item: one at a time
        if len(items) == 1:
            return [""]
        return [next(iter(_render([item], style, output)), "") for item in items]
    return [MARGIN_NUMBER.sub(r"\1 ", entry).strip() for entry in rendered]


def format_references(sources: list[Source], style: Style) -> list[Reference]:
    """Each source's reference in the style, as plain text and as (escaped) HTML."""
    items = to_csl(sources)
    if not items:
        return []
    # One rendering (the slow part): the text is the HTML without its tags.
    markups = _render([_escaped(item) for item in items], style, _HTML)
    # Safe: every variable was escaped before rendering, and the only markup is the formatter's.
    return [
        Reference(text=html.unescape(TAG.sub("", markup)), html=mark_safe(markup))
        for markup in markups
    ]
