"""Settings other apps keep for a reader, edited on the profile page with the rest.

Accounts owns the profile page but not every setting on it: an app that keeps a setting of its
own (teams: reminders before sessions) registers a section in its AppConfig.ready(). A section
is a form over that app's own rows, which the profile renders with its own template, validates
with the profile form and saves with it, so accounts depends on no other app.
"""

from collections.abc import Callable
from typing import Any, Protocol

from django.http import QueryDict
from django.utils.safestring import SafeString

from .models import User


class ProfileSection(Protocol):
    """What the profile page needs of a section: a bound or unbound Django form does it."""

    def is_valid(self) -> bool: ...

    def save(self) -> Any: ...

    def render(self) -> SafeString: ...


SectionFactory = Callable[[User, QueryDict | None], ProfileSection]
_sections: list[SectionFactory] = []


def register_profile_section(factory: SectionFactory) -> None:
    """Add a section: given the reader and the POST data (or None), it returns its form."""
    if factory not in _sections:
        _sections.append(factory)


def profile_sections(user: User, data: QueryDict | None) -> list[ProfileSection]:
    """Every registered section's form for this reader, in the order they registered."""
    return [factory(user, data) for factory in _sections]
