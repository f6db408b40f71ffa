"""Read the bookmark control's state out of rendered HTML, as a screen reader would."""

import re

# A control shown more than once on a page names its copy: bookmark-7-in-<section>-read.
COPY = r"(?:-in-[-\w]+?)?"


def _button(source):
    # A control's own button by its id; a list's shared-form button by its value (7:read).
    return rf'(?:id="bookmark-{source.pk}{COPY}-|name="choice" value="{source.pk}:)(\w+)"'


def pressed(html, source):
    """The statuses shown as pressed for `source`'s control(s)."""
    return re.findall(rf'{_button(source)}[^>]*aria-pressed="true"', html)


def autofocused(html, source):
    return re.findall(rf"{_button(source)}[^>]*\bautofocus\b", html)
