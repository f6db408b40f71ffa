"""Finding the sources a session reads: by title, alias, slug or the source page's address, as
a planner types them without JavaScript, and by the catalog's own search as they type with it."""

from typing import Any
from urllib.parse import urlsplit

from django import forms
from django.db.models import Q

from catalog.models import Source
from catalog.querysets import private_sources_of_team
from search.page import matching_sources
from search.parsing import SearchParams

SUGGESTIONS = 8


def suggest(text: str) -> list[Source]:
    """The first sources /sources/ shows for `text`, in its order."""
    text = text.strip()
    if not text:
        return []
    return matching_sources(SearchParams(q=text), limit=SUGGESTIONS)


def _slug_of(text: str) -> str:
    path = urlsplit(text).path if "/" in text else text
    return path.rstrip("/").rsplit("/", 1)[-1]


def _named(text: str, sources: list[Source]) -> list[Source]:
    """The sources `text` names exactly: slug, title or one of the aliases, in any case."""
    wanted = text.casefold()
    slug = _slug_of(text)
    by_slug = [source for source in sources if source.slug == slug]
    if by_slug:
        return by_slug
    return [
        source
        for source in sources
        if source.title.casefold() == wanted
        or wanted in (alias.casefold() for alias in source.alias_list)
    ]


def _findable(team_id: int | None) -> Q:
    """Published sources, and the private ones of the session's own team (no other team's)."""
    published = Q(status="published")
    return published if team_id is None else published | private_sources_of_team(team_id)


def _candidates(lines: list[str], team_id: int | None) -> list[Source]:
    """Every source a line could name, in one query."""
    condition = Q()
    for line in lines:
        for part in {line, *line.split(",")}:
            part = part.strip()
            if part:
                condition |= (
                    Q(slug=_slug_of(part)) | Q(title__iexact=part) | Q(aliases__icontains=part)
                )
    if not condition:
        return []
    findable = Source.all_objects.filter(_findable(team_id)).filter(condition)
    return list(findable.only("pk", "slug", "title", "aliases"))


def resolve(text: str, team_id: int | None = None) -> list[Source]:
    """The sources a planner typed, one per line. A line that names no source whole is read as
    names separated by commas, so a title with a comma in it still works. Raises
    ValidationError naming every line it could not read."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    candidates = _candidates(lines, team_id)
    found: dict[int, Source] = {}
    problems: list[str] = []
    unknown: list[str] = []
    for line in lines:
        parts = [line] if _named(line, candidates) else [p.strip() for p in line.split(",")]
        for part in filter(None, parts):
            named = _named(part, candidates)
            if len(named) == 1:
                found.setdefault(named[0].pk, named[0])
            elif named:
                problems.append(
                    f"Several sources are called “{part}”; paste the address of the one you mean."
                )
            elif part not in unknown:
                unknown.append(part)
    if unknown:
        # One line for every name not found, however many were typed.
        problems.insert(0, _unknown_message(unknown))
    if problems:
        raise forms.ValidationError(list(dict.fromkeys(problems)))
    return list(found.values())


UNKNOWN_SHOWN = 5


def _unknown_message(names: list[str]) -> str:
    if len(names) == 1:
        return f"No source is called “{names[0]}”. Search for it above."
    quoted = ", ".join(f"“{name}”" for name in names[:UNKNOWN_SHOWN])
    more = len(names) - UNKNOWN_SHOWN
    listed = f"{quoted} and {more} more" if more > 0 else quoted
    return f"No sources are called {listed}. Search for them above."


# A session planned from a path or list takes its next few steps; more is not a session.
PREFILL_MAX = 12


def prefilled(value: str | None) -> list[Source]:
    """Published sources named by id in `?sources=1,2,3`, in that order; anything that is not
    the id of a published source is left out, so a hand-edited link prefills what it can."""
    ids: list[int] = []
    for part in (value or "").split(",")[: PREFILL_MAX * 2]:
        part = part.strip()
        if part.isdigit() and int(part) not in ids:
            ids.append(int(part))
    found = Source.objects.published().only("pk", "slug", "title").in_bulk(ids[:PREFILL_MAX])
    return [found[pk] for pk in ids if pk in found]


class SourcesField(forms.CharField):
    """Sources by title, alias, slug or page address, one per line."""

    widget = forms.Textarea(attrs={"rows": 3})
    # The session's team, whose own private sources may be named too; set by the form.
    team_id: int | None = None

    def clean(self, value: Any) -> list[Source]:
        text = super().clean(value)
        return resolve(text or "", self.team_id)
