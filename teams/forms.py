import re
from datetime import datetime, timedelta
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.text import slugify

from accounts.models import User
from accounts.validators import validate_single_line
from catalog.models import Source

from .models import Session, Team, normalise_domain
from .session_sources import SourcesField


class TeamCreateForm(forms.Form):
    name = forms.CharField(label="Team name", max_length=100, validators=[validate_single_line])
    description = forms.CharField(
        label="Description",
        required=False,
        max_length=2_000,
        widget=forms.Textarea(attrs={"rows": 3}),
    )

    def clean_name(self) -> str:
        name = self.cleaned_data["name"].strip()
        if not any(character.isalnum() for character in name):
            raise forms.ValidationError("A team name needs at least one letter or digit.")
        # Two teams of one name would be told apart only by a "-2" in the address, and
        # invitations and mail subjects name the team: the creator picks another now.
        slug = slugify(name)[:90]
        taken = Team.objects.filter(name__iexact=name)
        if slug:
            taken = taken | Team.objects.filter(slug=slug)
        if taken.exists():
            raise forms.ValidationError(
                f"Another team is already called “{name}” or something very close. "
                "Choose another name: adding your organisation's or your city's usually does."
            )
        return name


class TeamSettingsForm(forms.ModelForm):
    class Meta:
        model = Team
        fields = ["description"]
        widgets = {"description": forms.Textarea(attrs={"rows": 3})}


DOMAIN_LABEL = re.compile(r"^(?!-)[a-z0-9-]{1,63}(?<!-)$")


class DomainForm(forms.Form):
    domain = forms.CharField(
        label="Email domain",
        max_length=253,
        help_text=(
            "Readers with a verified address at this domain join the team by themselves. "
            "It works at once if your own verified address is there; otherwise you are given "
            "a DNS record to add."
        ),
    )

    def clean_domain(self) -> str:
        domain = normalise_domain(self.cleaned_data["domain"])
        try:
            ascii_domain = domain.encode("idna").decode("ascii")
        except UnicodeError:
            ascii_domain = ""
        labels = ascii_domain.split(".")
        if len(labels) < 2 or not all(DOMAIN_LABEL.match(label) for label in labels):
            raise forms.ValidationError(f"“{domain}” is not a domain such as example.com.")
        return ascii_domain


class InviteForm(forms.Form):
    email = forms.EmailField(label="Email address")
    any_email = forms.BooleanField(
        label="Let whoever opens the link accept it, whatever their address",
        required=False,
    )


class JoinLinkForm(forms.Form):
    expires_in_days = forms.IntegerField(
        label="Expires after (days)",
        required=False,
        min_value=1,
        max_value=365,
        help_text="Leave empty for a link that does not expire.",
    )
    max_uses = forms.IntegerField(
        label="Maximum uses",
        required=False,
        min_value=1,
        max_value=10_000,
        help_text="Leave empty for no limit.",
    )

    def expires(self) -> datetime | None:
        days = self.cleaned_data.get("expires_in_days")
        return timezone.now() + timedelta(days=days) if days else None


DEFAULT_DURATION = 60
# A session planned a little late (the group met an hour ago) is still recorded; one further
# back is a typo in the year far more often than a record of the past.
PAST_GRACE = timedelta(days=1)


class FacilitatorField(forms.ModelChoiceField):
    """Members by the name they show on the site, not by their address."""

    def label_from_instance(self, obj: User) -> str:
        return obj.public_name


class SessionForm(forms.ModelForm):
    starts_at = forms.DateTimeField(
        label="Starts at",
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
        help_text="In your time zone (set on your profile).",
    )
    source_slugs = SourcesField(
        label="Sources to read",
        required=False,
        help_text="One per line: a source's title, one of its other names, or its address.",
    )

    class Meta:
        model = Session
        fields = [
            "title",
            "starts_at",
            "duration_minutes",
            "facilitator",
            "place",
            "meeting_url",
            "agenda",
        ]
        widgets = {"agenda": forms.Textarea(attrs={"rows": 6})}
        field_classes = {"facilitator": FacilitatorField}

    def __init__(
        self,
        *args: Any,
        team: Team,
        planner: User | None = None,
        prefill: list[Source] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.prefill = prefill or []
        facilitator = self.fields["facilitator"]
        assert isinstance(facilitator, FacilitatorField)
        facilitator.queryset = team.members.order_by("email")
        facilitator.empty_label = "Nobody yet"
        sources = self.fields["source_slugs"]
        assert isinstance(sources, SourcesField)
        sources.team_id = team.pk
        self.fields["duration_minutes"].required = False
        if self.instance.pk and not self.is_bound:
            self.initial["source_slugs"] = "\n".join(
                Source.all_objects.filter(team_sessions=self.instance).values_list(
                    "title", flat=True
                )
            )
        elif planner is not None and not self.instance.pk:
            # Whoever plans a session usually leads it.
            self.initial.setdefault("facilitator", planner.pk)
        if self.prefill and not self.instance.pk and not self.is_bound:
            # Planned from a path's or list's next steps: by address, which names one source
            # where a title may name several (a paper and its repository).
            self.initial["source_slugs"] = "\n".join(
                source.get_absolute_url() for source in self.prefill
            )

    def clean_starts_at(self) -> datetime:
        starts_at: datetime = self.cleaned_data["starts_at"]
        # Only a new session: editing one that has happened (its agenda, its notes) must work.
        if not self.instance.pk and starts_at < timezone.now() - PAST_GRACE:
            raise forms.ValidationError(
                f"That date is in the past ({starts_at.day} {starts_at:%B %Y}); "
                "choose when the group will meet."
            )
        return starts_at

    def clean_duration_minutes(self) -> int:
        # Left empty, a session lasts the usual hour.
        return self.cleaned_data.get("duration_minutes") or DEFAULT_DURATION

    def chosen_sources(self) -> list[Source]:
        """The sources shown as chips: as typed when the form was sent, else as saved."""
        if self.is_bound:
            return (
                self.cleaned_data.get("source_slugs", []) if hasattr(self, "cleaned_data") else []
            )
        if self.instance.pk:
            return list(Source.all_objects.filter(team_sessions=self.instance))
        return self.prefill

    def save(self, commit: bool = True) -> Session:
        session = super().save(commit=commit)
        if commit:
            chosen = self.cleaned_data["source_slugs"]
            # Through the rows, not sources.set(): the related manager cannot see the team's
            # private sources, so set() would never take one off.
            links = Session.sources.through.objects.filter(session=session)
            links.exclude(source__in=[source.pk for source in chosen]).delete()
            session.sources.add(*chosen)
        return session
