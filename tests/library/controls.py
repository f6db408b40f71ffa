"""Read the bookmark control's state out of rendered HTML, as a screen reader would."""

import re

from catalog.models import Source

# A control shown more than once on a page names its copy: bookmark-7-in-<section>-read.
COPY = r"(?:-in-[-\w]+?)?"


def _button(source: Source) -> str:
    # A control's own button by its id; a list's shared-form button by its value (7:read).
    return rf'(?:id="bookmark-{source.pk}{COPY}-|name="choice" value="{source.pk}:)(\w+)"'


def pressed(html: str, source: Source) -> list[str]:
    """The statuses shown as pressed for `source`'s control(s)."""
    return re.findall(rf'{_button(source)}[^>]*aria-pressed="true"', html)


def autofocused(html: str, source: Source) -> list[str]:
    return re.findall(rf"{_button(source)}[^>]*\bautofocus\b", html)
