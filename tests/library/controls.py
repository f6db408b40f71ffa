"""Read the bookmark control's state out of rendered HTML, as a screen reader would."""

import re


def pressed(html, source):
    """The statuses shown as pressed for `source`'s control(s)."""
    return re.findall(rf'id="bookmark-{source.pk}-(\w+)"[^>]*aria-pressed="true"', html)


def autofocused(html, source):
    return re.findall(rf'id="bookmark-{source.pk}-(\w+)"[^>]*\bautofocus\b', html)
