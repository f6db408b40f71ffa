"""Text that may reach an email header (names, titles) must stay on one line.

A line break in a subject or display name makes Python's mail package refuse the whole message
(or, with a laxer library, lets the text add headers of its own), so such text is refused where
it is typed and by a database check constraint, and mail building flattens whatever slips by.
"""

import unicodedata

from django.core.exceptions import ValidationError
from django.db.models import Q

# For the database check constraint: ASCII control characters, DEL, NEL and the Unicode line and
# paragraph separators. Both SQLite (Django's Python REGEXP) and PostgreSQL read these escapes.
LINE_BREAKING = r"[\x01-\x1f\x7f\x85\u2028\u2029]"
# Unicode categories that never belong in a one-line name: controls and line/paragraph breaks.
_REFUSED_CATEGORIES = {"Cc", "Zl", "Zp"}


def is_single_line(text: str) -> bool:
    return not any(unicodedata.category(character) in _REFUSED_CATEGORIES for character in text)


def validate_single_line(value: str) -> None:
    if not is_single_line(value):
        raise ValidationError(
            "Use one line, without line breaks, tabs or other control characters.",
            code="single_line",
        )


def one_line(text: str) -> str:
    """`text` with every run of line breaks, controls and whitespace turned into one space."""
    kept = (
        " " if unicodedata.category(character) in _REFUSED_CATEGORIES else character
        for character in text
    )
    return " ".join("".join(kept).split())


def single_line_condition(field: str) -> Q:
    """A check constraint's condition: `field` holds no line-breaking character."""
    return ~Q(**{f"{field}__regex": LINE_BREAKING})
