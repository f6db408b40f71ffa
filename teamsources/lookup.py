"""What other apps' pages ask of a team's own sources (the site's pages use these)."""

import re
from typing import Any

from catalog.models import Source

from .models import TeamSource

# The search words a team's search matches on; a query is short, so a few are enough.
MAX_WORDS = 8
TEAM_RESULTS = 20
_WORD = re.compile(r"\w+", re.UNICODE)


def team_source_of(source: Source) -> TeamSource | None:
    """The team row of a private source the viewer has already been allowed to see."""
    if not source.is_private:
        return None
    return TeamSource.objects.select_related("team").filter(source=source).first()


def team_matches(user: Any, q: str) -> list[TeamSource]:
    """The viewer's teams' own sources matching every word of `q`, newest first (one query).
    A team's sources are few, so a plain match serves; the public index never holds them."""
    words = _WORD.findall(q.lower())[:MAX_WORDS]
    if not words or not getattr(user, "is_authenticated", False):
        return []
    found = TeamSource.objects.of_member(user).matching(words)
    return list(found.select_related("source", "team").order_by("-created", "-pk")[:TEAM_RESULTS])
