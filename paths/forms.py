"""The path pages' forms. Limits are checked here, in words, before anything is saved."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.db.models import QuerySet

from accounts.models import User
from accounts.validators import validate_single_line
from catalog.models import Source
from teams.models import Membership, Team

from .finding import MAX_QUERY, find_source
from .models import DESCRIPTION_MAX, NOTE_MAX, Path, PathSection, Visibility

PERSONAL = [Visibility.PRIVATE, Visibility.UNLISTED, Visibility.PUBLIC]
SHARED = [Visibility.TEAM, Visibility.UNLISTED, Visibility.PUBLIC]
_TEAM_VALUE = "team:"


def _description_field() -> forms.CharField:
    return forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 5}),
        help_text=f"Markdown, at most {DESCRIPTION_MAX:,} characters.",
        error_messages={
            "max_length": f"A description holds at most {DESCRIPTION_MAX:,} characters "
            "(this one has %(show_value)d)."
        },
        max_length=DESCRIPTION_MAX,
    )


def _title_field() -> forms.CharField:
    return forms.CharField(max_length=200, validators=[validate_single_line])


def check_visibility(visibility: str, team: Team | None) -> None:
    allowed = SHARED if team else PERSONAL
    if visibility not in allowed:
        if team:
            raise ValidationError(
                "A team's path is seen by at least its members: choose Team, Unlisted or Public."
            )
        raise ValidationError(
            "Only a team's path can be shared with a team: choose Private, Unlisted or Public, "
            "or make the path for one of your teams."
        )


class PathCreateForm(forms.Form):
    title = _title_field()
    description = _description_field()
    owner = forms.ChoiceField(label="Whose path", initial="me")
    visibility = forms.ChoiceField(
        choices=Visibility.choices,
        required=False,
        help_text="A team's path is seen by its members at least; yours is private by default.",
    )

    def __init__(self, *args: Any, user: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.teams = {
            team.pk: team for team in Team.objects.filter(memberships__user=user).order_by("name")
        }
        owner = self.fields["owner"]
        assert isinstance(owner, forms.ChoiceField)  # declared above
        owner.choices = [
            ("me", "Mine"),
            *[(f"{_TEAM_VALUE}{team.pk}", f"Team {team.name}") for team in self.teams.values()],
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        owner = data.get("owner") or "me"
        team = None
        if owner.startswith(_TEAM_VALUE):
            team = self.teams.get(int(owner.removeprefix(_TEAM_VALUE)))
        data["team"] = team
        visibility = data.get("visibility") or (Visibility.TEAM if team else Visibility.PRIVATE)
        try:
            check_visibility(visibility, team)
        except ValidationError as error:
            self.add_error("visibility", error)
        data["visibility"] = visibility
        return data


class PathDetailsForm(forms.Form):
    title = _title_field()
    description = _description_field()
    visibility = forms.ChoiceField(choices=Visibility.choices, widget=forms.RadioSelect)

    def __init__(self, *args: Any, path: Path, **kwargs: Any) -> None:
        kwargs.setdefault(
            "initial",
            {"title": path.title, "description": path.description, "visibility": path.visibility},
        )
        super().__init__(*args, **kwargs)
        self.path = path
        allowed = SHARED if path.team_id else PERSONAL
        visibility = self.fields["visibility"]
        assert isinstance(visibility, forms.ChoiceField)  # declared above
        visibility.choices = [(v.value, v.label) for v in allowed]
        # A choice the form does not offer still gets the message that says why.
        self.fields["visibility"].error_messages["invalid_choice"] = (
            "A team's path is seen by at least its members: choose Team, Unlisted or Public."
            if path.team_id
            else "Only a team's path can be shared with a team: choose Private, Unlisted or Public."
        )


class EditorsForm(forms.Form):
    editors = forms.ModelMultipleChoiceField(
        queryset=User.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text="The team's owners can always edit its paths.",
    )

    def __init__(self, *args: Any, path: Path, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        members = Membership.objects.filter(team=path.team, role=Membership.Role.MEMBER)
        editors = self.fields["editors"]
        assert isinstance(editors, forms.ModelMultipleChoiceField)  # declared above
        editors.queryset = User.objects.filter(pk__in=members.values("user_id")).order_by("email")
        editors.label = "Members who may edit"
        if not self.is_bound:
            self.initial["editors"] = list(path.editors.values_list("pk", flat=True))


class AddStepForm(forms.Form):
    source = forms.CharField(
        label="Add a source",
        max_length=MAX_QUERY,
        help_text="Its title, its address (arXiv, DOI, repository, page) or its slug.",
    )
    section = forms.TypedChoiceField(coerce=int, required=False, label="To the section")
    note = forms.CharField(
        required=False, max_length=NOTE_MAX, widget=forms.Textarea(attrs={"rows": 2})
    )

    def __init__(
        self,
        *args: Any,
        sections: list[PathSection],
        pool: QuerySet[Source] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.pool = pool
        self.sections = {section.pk: section for section in sections}
        section = self.fields["section"]
        assert isinstance(section, forms.ChoiceField)  # declared above
        section.choices = [(s.pk, str(s)) for s in sections]
        self.fields["note"].label = "Why read it (optional, Markdown)"

    def clean_source(self) -> Source:
        return find_source(self.cleaned_data["source"], self.pool)

    def clean_section(self) -> PathSection | None:
        pk = self.cleaned_data.get("section")
        return self.sections.get(pk) if pk else None


class NoteForm(forms.Form):
    note = forms.CharField(
        required=False,
        max_length=NOTE_MAX,
        widget=forms.Textarea(attrs={"rows": 6}),
        label="Why read it",
        help_text=f"Markdown, at most {NOTE_MAX:,} characters: what to look for, which pages.",
    )


class SectionForm(forms.Form):
    title = forms.CharField(
        max_length=200, required=False, validators=[validate_single_line], label="Section title"
    )
