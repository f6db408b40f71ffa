"""`@name` in a post mentions a member of the thread's team, by display name (written without
spaces, any case) or by the part of their email address before the @. Only the team's members
can be mentioned: a name nobody in the team has mentions nobody."""

import re
from dataclasses import dataclass

from django.db.models import Q

from accounts.models import User

MAX_MENTIONS = 20
# Not after a word character, so an email address in the text ("ann@example.com") is no mention.
_MENTION = re.compile(r"(?<![\w@])@([\w][\w.\-]{0,62}[\w]|[\w])")


class TooManyMentions(ValueError):
    def __init__(self, count: int) -> None:
        self.count = count
        super().__init__(
            f"This mentions {count:,} different names; a post may mention at most "
            f"{MAX_MENTIONS}. Remove some @names and save again (your text is kept here)."
        )


@dataclass(frozen=True)
class Mentions:
    members: list[User]
    unknown: list[str]


def names_in(text: str) -> list[str]:
    """The distinct @names in `text`, lowercased, in order of first appearance."""
    return list(dict.fromkeys(name.lower() for name in _MENTION.findall(text or "")))


def check_count(text: str) -> list[str]:
    names = names_in(text)
    if len(names) > MAX_MENTIONS:
        raise TooManyMentions(len(names))
    return names


def resolve(text: str, *, team_id: int) -> Mentions:
    """The team's members `text` mentions (one query, none without @names) and the names that
    matched nobody. Raises TooManyMentions past MAX_MENTIONS names."""
    names = check_count(text)
    if not names:
        return Mentions([], [])
    wanted = Q()
    for name in names:
        wanted |= Q(display_name__iexact=name) | Q(email__istartswith=f"{name}@")
    members = list(User.objects.filter(wanted, memberships__team_id=team_id).distinct())
    found: dict[str, User] = {}
    for member in members:
        keys = {member.email.split("@", 1)[0].lower()}
        if member.display_name:
            keys.add(member.display_name.replace(" ", "").lower())
        for key in keys & set(names):
            found.setdefault(key, member)
    unknown = [name for name in names if name not in found]
    return Mentions(list({member.pk: member for member in found.values()}.values()), unknown)
