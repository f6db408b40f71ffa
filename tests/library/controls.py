"""Read the bookmark control's state out of rendered HTML, as a screen reader would."""

import re

from catalog.models import Source

# A control shown more than once on a page names its copy: bookmark-7-in-<section>-read.
COPY = r"(?:-in-[-\w]+?)?"


def pressed(html: str, source: Source) -> list[str]:
    """The statuses shown as pressed for `source`'s control(s)."""
    return re.findall(rf'id="bookmark-{source.pk}{COPY}-(\w+)"[^>]*aria-pressed="true"', html)


def autofocused(html: str, source: Source) -> list[str]:
    return re.findall(rf'id="bookmark-{source.pk}{COPY}-(\w+)"[^>]*\bautofocus\b', html)
