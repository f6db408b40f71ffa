"""Who a new path belongs to (the reader or one of their teams) and who sees it: the part of
the draft, import and fork forms that decides where the path lands."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms

from accounts.validators import validate_single_line
from teams.models import Team

from .models import Visibility

if TYPE_CHECKING:
    from accounts.models import User

ME = "me"
VISIBILITY_CHOICES = [
    ("private", "Private: only you, or only the team's members for a team's path"),
    ("unlisted", "Unlisted: anyone with the link"),
    ("public", "Public: listed on the site"),
]


class OwnerForm(forms.Form):
    """The owner select (you or one of your teams) and the visibility. A team the reader is
    not in is not among the choices, so posting one is a form error, never a team's path."""

    # Not required: a one-click form that sends neither makes the reader's own private path.
    owner = forms.ChoiceField(label="Whose path", initial=ME, required=False)
    visibility = forms.ChoiceField(
        label="Who can see it", choices=VISIBILITY_CHOICES, initial="private", required=False
    )

    def __init__(self, *args: Any, user: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.teams = {
            str(team.pk): team for team in Team.objects.filter(memberships__user=user).distinct()
        }
        owner = self.fields["owner"]
        assert isinstance(owner, forms.ChoiceField)
        owner.choices = [(ME, "Yours")] + [
            (pk, f"The team {team.name}") for pk, team in self.teams.items()
        ]

    def clean_owner(self) -> str:
        return self.cleaned_data.get("owner") or ME

    def clean_visibility(self) -> str:
        return self.cleaned_data.get("visibility") or "private"

    @property
    def team(self) -> Team | None:
        return self.teams.get(self.cleaned_data.get("owner", ME))

    @property
    def path_visibility(self) -> str:
        """The stored visibility: "private" means the team's members for a team's path."""
        chosen = self.cleaned_data.get("visibility", "private")
        if chosen == "private" and self.team is not None:
            return Visibility.TEAM
        return chosen


class TitledOwnerForm(OwnerForm):
    title = forms.CharField(label="Title", max_length=200, validators=[validate_single_line])

    field_order = ["title", "owner", "visibility"]


def title_from(text: str, *, suffix: str = "") -> str:
    """A path title from free text: one line, within the title's 200 characters."""
    line = " ".join(text.split())
    room = 200 - len(suffix)
    if len(line) > room:
        line = line[: room - 1].rstrip() + "…"
    return line + suffix
